from __future__ import annotations

import hashlib

import pytest
from django.urls import reverse

from apps.accounts.models import ApiToken
from apps.accounts.tokens import api_token_authenticate, api_token_create

pytestmark = pytest.mark.django_db


class TokenPageTests:
    def test_an_owner_creates_a_token_and_sees_it_once(self, client, owner, team):
        client.force_login(owner)
        response = client.post(reverse("benchmarks:tokens"), {"name": "training pipeline"})
        assert response.status_code == 200
        assert response["Cache-Control"] == "no-store"
        raw = response.context["created"]["raw"]
        html = response.content.decode()
        assert raw in html
        assert "Copy it now; it is not shown again." in html
        token = ApiToken.objects.get()
        assert (token.team, token.name, token.created_by) == (team, "training pipeline", owner)
        # only a hash is stored; the raw value is nowhere in the row
        assert token.key_hash == hashlib.sha256(raw.encode()).hexdigest()
        assert raw not in {token.key_hash, token.prefix, token.name}
        assert api_token_authenticate(raw) == token
        # the next visit lists it by prefix, without the raw value
        again = client.get(reverse("benchmarks:tokens")).content.decode()
        assert raw not in again
        assert f"{token.prefix}…" in again

    def test_a_blank_name_is_an_error_on_the_field(self, client, owner):
        client.force_login(owner)
        response = client.post(reverse("benchmarks:tokens"), {"name": ""})
        assert response.context["form"].errors["name"]
        assert not ApiToken.objects.exists()

    def test_an_owner_revokes_a_token(self, client, owner, team):
        token, raw = api_token_create(team=team, name="ci", created_by=owner)
        client.force_login(owner)
        assert client.get(reverse("benchmarks:token_revoke", args=[token.pk])).status_code == 405
        response = client.post(reverse("benchmarks:token_revoke", args=[token.pk]))
        assert response.status_code == 302
        token.refresh_from_db()
        assert token.revoked_at is not None
        assert api_token_authenticate(raw) is None
        html = client.get(reverse("benchmarks:tokens")).content.decode()
        assert "revoked" in html
        assert reverse("benchmarks:token_revoke", args=[token.pk]) not in html

    @pytest.mark.parametrize("role", ["member", "reviewer"])
    def test_members_and_reviewers_are_refused(self, client, team, owner, role, request):
        user = request.getfixturevalue(role)
        token, _ = api_token_create(team=team, name="ci", created_by=owner)
        client.force_login(user)
        assert client.get(reverse("benchmarks:tokens")).status_code == 403
        assert client.post(reverse("benchmarks:tokens"), {"name": "x"}).status_code == 403
        revoke = client.post(reverse("benchmarks:token_revoke", args=[token.pk]))
        assert revoke.status_code == 403
        assert ApiToken.objects.filter(revoked_at__isnull=True).count() == 1

    def test_an_outsider_gets_404_for_another_teams_token(self, client, team, owner, outsider):
        token, _ = api_token_create(team=team, name="ci", created_by=owner)
        client.force_login(outsider)
        response = client.post(reverse("benchmarks:token_revoke", args=[token.pk]))
        assert response.status_code == 404
        token.refresh_from_db()
        assert token.revoked_at is None

    def test_an_outsider_sees_only_their_own_teams_tokens(
        self, client, team, owner, outsider, other_team
    ):
        api_token_create(team=team, name="theirs-not", created_by=owner)
        api_token_create(team=other_team, name="mine", created_by=outsider)
        client.force_login(outsider)
        html = client.get(reverse("benchmarks:tokens")).content.decode()
        assert "mine" in html and "theirs-not" not in html
