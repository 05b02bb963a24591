"""Demo teams and users; other apps build their demo data on this context."""

from __future__ import annotations

from dataclasses import dataclass, field

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model

from .models import Membership, Role, Team


@dataclass
class DemoContext:
    PASSWORD = "demo-pass-123"
    team1: Team
    team2: Team
    users: dict = field(default_factory=dict)
    # Apps put what later apps need here (sites, offers, profiles by key).
    objects: dict = field(default_factory=dict)


def load_accounts() -> DemoContext:
    team1, _ = Team.objects.get_or_create(
        slug="aurora", defaults={"name": "Team Aurora", "currency": "USD"}
    )
    team2, _ = Team.objects.get_or_create(
        slug="borealis", defaults={"name": "Team Borealis", "currency": "CNY"}
    )
    User = get_user_model()
    users = {}
    for username, team, role, email in (
        ("alice", team1, Role.OWNER, "alice@example.com"),
        ("bob", team1, Role.REVIEWER, "bob@example.com"),
        ("carol", team2, Role.MEMBER, "carol@example.com"),
        ("dave", team2, Role.REVIEWER, "dave@example.com"),
    ):
        user, created = User.objects.get_or_create(username=username, defaults={"email": email})
        if created or not user.check_password(DemoContext.PASSWORD):
            user.set_password(DemoContext.PASSWORD)
            user.save(update_fields=["password"])
        Membership.objects.update_or_create(user=user, team=team, defaults={"role": role})
        # Demo addresses count as verified (sign-in requires a verified address).
        EmailAddress.objects.get_or_create(
            user=user, email=user.email, defaults={"verified": True, "primary": True}
        )
        users[username] = user
    return DemoContext(team1=team1, team2=team2, users=users)
