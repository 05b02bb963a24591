"""An offer's interconnect (SPEC 7.4, engine 3.1): saved from the form, shown on the offer page
in both languages, sent to the engine only when recorded, refused by field when not a choice."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.catalog.models import Offer
from apps.profiles.engine_input import offer_input
from tests.catalog.helpers import offer_data

pytestmark = pytest.mark.django_db


def _post(client, world, lang="en", **overrides):
    return client.post(
        reverse("catalog:offer_create"),
        offer_data(world["a"], name="8x H100 IB", **overrides),
        HTTP_ACCEPT_LANGUAGE=lang,
    )


class InterconnectFormTests:
    def test_it_saves_the_interconnect_shows_it_and_sends_it(self, client, world, owner):
        client.force_login(owner)
        assert _post(client, world, interconnect="infiniband").status_code == 302
        offer = Offer.objects.get(name="8x H100 IB")
        assert offer.interconnect == "infiniband"
        assert offer_input(offer)["interconnect"] == "infiniband"
        detail = client.get(reverse("catalog:offer_detail", args=[offer.pk])).content.decode()
        assert "InfiniBand" in detail and "needs InfiniBand or RoCE (K3)" in detail
        zh = client.get(
            reverse("catalog:offer_detail", args=[offer.pk]), HTTP_ACCEPT_LANGUAGE="zh-hans"
        ).content.decode()
        assert "跨机互联" in zh

    def test_blank_is_unknown_and_not_sent(self, client, world, owner):
        client.force_login(owner)
        assert _post(client, world, interconnect="").status_code == 302
        offer = Offer.objects.get(name="8x H100 IB")
        assert offer.interconnect == ""
        assert "interconnect" not in offer_input(offer)  # fingerprints of old inputs stay
        detail = client.get(reverse("catalog:offer_detail", args=[offer.pk])).content.decode()
        assert "not recorded" in detail

    @pytest.mark.parametrize(("lang", "message"), [("en", "Select a valid choice"),
                                                   ("zh-hans", "选择一个有效的选项")])
    def test_a_value_that_is_not_a_choice_is_refused_on_its_field(
        self, client, world, owner, lang, message
    ):  # fmt: skip
        client.force_login(owner)
        response = _post(client, world, lang, interconnect="fibre")
        assert response.status_code == 200
        errors = response.context["form"].errors
        assert list(errors) == ["interconnect"]
        assert message in " ".join(errors["interconnect"])
        assert not Offer.objects.filter(name="8x H100 IB").exists()

    def test_the_form_shows_the_help_in_chinese(self, client, owner):
        client.force_login(owner)
        page = client.get(reverse("catalog:offer_create"), HTTP_ACCEPT_LANGUAGE="zh-hans")
        html = page.content.decode()
        assert "机器间互联" in html and "留空 = 未知" in html
