"""Who may call what: every URL pattern of the project against every kind of caller.

The URL patterns are read from the URLconf, so a new view without an entry in MATRIX fails
`test_it_covers_every_url_pattern`. Each entry says which team roles the view allows; the
expectations follow from it:

- anonymous → a redirect to the login page (401 for /api/);
- a role of the object's team that the view allows → "ok" (200, 201, 204, 286, 302, 303, 400,
  409 or 422: authorised, whatever the validation says), a lower role → 403;
- anyone of another team (the "outsider" on team A's object, and each team-A role on team B's
  object) → 404: never 403, never 200 — another team's objects do not exist for them.

Every request runs in a savepoint that is rolled back, so deletes and edits never change the
world seen by the next request. The mismatches are collected and shown as one table.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urlencode

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import URLResolver, get_resolver, reverse

from tests.security.helpers import TeamWorld, World, build_world, rolled_back

pytestmark = pytest.mark.django_db

# Roles of the object's team; "token" is team A's API token (API routes only).
MEMBER, REVIEWER, OWNER, TOKEN = "member", "reviewer", "owner", "token"
ALL = frozenset({MEMBER, REVIEWER, OWNER})
OWNERS = frozenset({OWNER})
BENCH_WRITERS = frozenset({MEMBER, OWNER})  # reviewers judge evidence, they do not produce it
DECIDERS = frozenset({REVIEWER, OWNER})  # and never the author (the member, here)

OK_STATUSES = {200, 201, 204, 286, 302, 303, 400, 409, 422}
OK_READS = {200, 286, 302}  # a page read by an allowed caller renders (or redirects)
LOGIN, OK, EMPTY = "login", "ok", "empty"  # EMPTY: 200 with an empty JSON list
SKIPPED = {
    "set_language",  # Django's language switch: public by design, no team data
    "admin_moved_model",  # a redirect into the admin, which needs is_staff (AdminTests): no data
}


@dataclass(frozen=True)
class Route:
    allowed: frozenset = ALL
    methods: tuple[str, ...] = ("GET",)
    obj: Callable[[TeamWorld], dict] | None = None  # URL kwargs naming one team's object
    query: Callable[[TeamWorld], dict] | None = None  # query string (may name an object)
    data: Callable[[TeamWorld], dict] | None = None  # form POST data
    body: Callable[[TeamWorld], dict] | None = None  # API JSON body
    scoped: bool | None = None  # names a team's object (default: when `obj` is given)
    public: bool = False
    api: bool = False
    htmx: bool = False
    fixed: int | None = None  # the same answer for everyone
    foreign: object = 404  # the answer for another team's object
    cross: dict = field(default_factory=dict)  # per-role overrides of `foreign`
    logs_out: bool = False
    # A person's own object (a notification): in its team too, only this role's user has it, and
    # any other caller gets 404 (it does not exist for them), never 403.
    personal: str | None = None
    # The answer for anonymous callers when it is not the login page (an invitation link).
    anonymous: object = None

    @property
    def is_scoped(self) -> bool:
        return self.scoped if self.scoped is not None else self.obj is not None


def pk(attr: str, key: str = "pk"):
    return lambda w: {key: getattr(w, attr).pk}


BOTH = ("GET", "POST")
POST = ("POST",)
# Settings actions check the owner role on the current team before they look the membership up:
# a 403 that does not depend on the pk, so it tells nothing about team B.
SETTINGS_CROSS = {MEMBER: 403, REVIEWER: 403}


def notification_of(w: TeamWorld):
    """The team reviewer's notification of the submitted review (told by the submission)."""
    from apps.notifications.models import Kind, Notification
    from apps.notifications.services import notify

    mine = Notification.objects.filter(recipient=w.reviewer, team=w.team).first()
    if mine is None:
        notify(
            kind=Kind.REVIEW_SUBMITTED, team=w.team, recipients=[w.reviewer],
            params={"review": w.review.title}, url="/", event_key=f"matrix:{w.team.pk}",
        )
        mine = Notification.objects.get(recipient=w.reviewer, team=w.team)
    return mine


def invitation_of(w: TeamWorld):
    """A pending invitation of the team, to an address none of the callers has, and its token."""
    from apps.accounts.invitations import invitation_create

    if "invitation" not in w.extra:
        w.extra["invitation"] = invitation_create(
            team=w.team, email=f"invitee-{w.team.slug}@example.com", role="member",
            invited_by=w.owner, base_url="http://testserver",
        )
    return w.extra["invitation"]


def webhook_of(w: TeamWorld):
    """An endpoint of the team (written directly: the matrix makes no network call)."""
    from apps.notifications.models import WebhookEndpoint

    if "webhook" not in w.extra:
        w.extra["webhook"] = WebhookEndpoint.objects.create(
            team=w.team, url=f"https://hooks.example.com/{w.team.slug}",
            events=["review_submitted"], secret="whsec_matrix", created_by=w.owner,
        )
    return w.extra["webhook"]


WEBHOOK = lambda w: {"pk": webhook_of(w).pk}  # noqa: E731 - a table entry


def comment_of(w: TeamWorld):
    """A comment of the team's member (the review's author) on the review's candidate."""
    from apps.reviews.comments.services import comment_post

    if "comment" not in w.extra:
        w.extra["comment"] = comment_post(
            review=w.review, actor=w.member, text="matrix", candidate=w.candidate
        )
    return w.extra["comment"]


COMMENT = lambda w: {"comment_id": comment_of(w).pk}  # noqa: E731 - a table entry
AUTHOR = frozenset({MEMBER})  # only a comment's author edits or deletes it


def actual_of(w: TeamWorld):
    return w.extra["actual"]  # tests/security/helpers.py: one per team


def actual_body(w: TeamWorld) -> dict:
    return {"review": w.review.pk, "period": "2026-03-01", "compute_cost": 1.0}


def bench_body(w: TeamWorld) -> dict:
    return {
        "task": w.profile.pk,
        "offer": w.offer.pk,
        "kind": "single",
        "nodes": 1,
        "gpus_per_node": 8,
        "e2e_hours": 3,
        "compute_hours": 2,
    }


MATRIX: dict[str, Route] = {
    # Project
    "home": Route(),
    # Notifications: a person's own; another's, a teammate's too, is a 404
    "notifications:inbox": Route(),
    "notifications:preferences": Route(methods=BOTH),
    "notifications:read_all": Route(methods=POST),
    "teams:webhooks": Route(
        OWNERS, BOTH, data=lambda w: {"url": "ftp://x", "events": ["review_submitted"]}
    ),
    "teams:webhook_detail": Route(OWNERS, obj=WEBHOOK),
    "teams:webhook_test": Route(OWNERS, POST, obj=WEBHOOK),
    "teams:webhook_resume": Route(OWNERS, POST, obj=WEBHOOK),
    "teams:webhook_delete": Route(OWNERS, POST, obj=WEBHOOK),
    "notifications:open": Route(obj=lambda w: {"pk": notification_of(w).pk}, personal=REVIEWER),
    "notifications:read": Route(
        methods=POST, obj=lambda w: {"pk": notification_of(w).pk}, personal=REVIEWER
    ),
    "ping": Route(public=True),
    # Accounts and team settings
    "accounts:login": Route(methods=BOTH, public=True),
    "accounts:logout": Route(methods=BOTH, public=True, logs_out=True),  # GET only asks
    "accounts:team_switch": Route(methods=POST, data=lambda w: {"team": w.team.pk}),
    # Old addresses of the team pages: a permanent redirect for everyone, no data.
    "accounts:settings_moved": Route(fixed=301),
    "accounts:calibration_moved": Route(fixed=301),
    # Invitations: owners invite and revoke in their current team. The link's page refuses every
    # signed-in caller whose address it was not sent to (403, so team A's link never grants B);
    # an anonymous caller is sent to the sign-up form.
    "accounts:account": Route(),  # "Your account": one's own teams and sign-in pages
    "accounts:invitations": Route(OWNERS, BOTH),
    "accounts:invitation_revoke": Route(
        OWNERS, POST, obj=lambda w: {"pk": invitation_of(w)[0].pk}, cross=SETTINGS_CROSS
    ),
    "accounts:invitation_accept": Route(
        frozenset(), BOTH, obj=lambda w: {"token": invitation_of(w)[1]}, foreign=403,
        anonymous=302,
    ),
    # django-allauth's pages (same /accounts/login/ and /accounts/logout/ as above)
    "account_login": Route(methods=BOTH, public=True),
    "account_logout": Route(methods=BOTH, public=True, logs_out=True),
    "account_signup": Route(methods=BOTH, public=True),  # closed without an invitation
    "account_inactive": Route(public=True),
    "account_email_verification_sent": Route(public=True),
    "account_confirm_email": Route(public=True, obj=lambda w: {"key": "no-such-key"}, scoped=False),
    "account_reset_password": Route(methods=BOTH, public=True),
    "account_reset_password_done": Route(public=True),
    "account_reset_password_from_key": Route(
        methods=BOTH, public=True, obj=lambda w: {"uidb36": "1", "key": "x-y"}, scoped=False
    ),
    "account_reset_password_from_key_done": Route(public=True),
    "account_confirm_login_code": Route(methods=BOTH),  # login by code is off: back to a page
    "account_reauthenticate": Route(methods=BOTH),
    "account_request_reauthentication_code": Route(methods=BOTH),
    "account_confirm_reauthentication_code": Route(methods=BOTH),
    "account_email": Route(methods=BOTH),
    "account_change_password": Route(methods=BOTH),
    "account_set_password": Route(methods=BOTH),
    "usersessions_list": Route(),
    "socialaccount_connections": Route(methods=BOTH),
    "socialaccount_login_cancelled": Route(public=True),
    "socialaccount_login_error": Route(fixed=401),
    "socialaccount_signup": Route(fixed=302),  # no sign-in in progress: back to the login page
    # No identity provider is configured here: the OIDC routes answer 404 to everyone
    # (tests/accounts/test_oidc.py drives them against an in-test issuer).
    "openid_connect_login": Route(fixed=404, obj=lambda w: {"provider_id": "sso"}, scoped=False),
    "openid_connect_callback": Route(
        fixed=404, obj=lambda w: {"provider_id": "sso"}, scoped=False
    ),
    "teams:settings": Route(),
    "teams:member_add": Route(OWNERS, POST),
    "teams:member_role": Route(
        OWNERS, POST, obj=pk("member_membership"), data=lambda w: {"role": "reviewer"},
        cross=SETTINGS_CROSS,
    ),
    "teams:member_remove": Route(
        OWNERS, POST, obj=pk("member_membership"), cross=SETTINGS_CROSS
    ),
    "teams:settings_general": Route(OWNERS, POST),
    "teams:tier_toggle": Route(OWNERS, POST),
    "teams:threshold_set": Route(OWNERS, POST),
    "teams:threshold_reset": Route(OWNERS, POST),
    "teams:calibration": Route(),
    "teams:calibration_adopt": Route(OWNERS, POST),
    # Method guide: read-only, for anyone signed in (the formulas show their team's thresholds)
    "method:index": Route(),
    "method:entry": Route(obj=lambda w: {"entry_id": "G1"}, scoped=False),
    # Catalog: everyone reads, owners write
    "catalog:index": Route(),
    "catalog:site_list": Route(),
    "catalog:site_create": Route(OWNERS, BOTH),
    "catalog:site_edit": Route(OWNERS, BOTH, obj=pk("home")),
    "catalog:site_delete": Route(OWNERS, BOTH, obj=pk("far")),
    "catalog:site_row": Route(obj=pk("home"), htmx=True),
    "catalog:link_list": Route(),
    "catalog:link_create": Route(OWNERS, BOTH),
    "catalog:link_edit": Route(OWNERS, BOTH, obj=pk("link")),
    "catalog:link_delete": Route(OWNERS, BOTH, obj=pk("link")),
    "catalog:link_row": Route(obj=pk("link"), htmx=True),
    "catalog:offer_list": Route(),
    "catalog:offer_create": Route(OWNERS, BOTH),
    "catalog:offer_detail": Route(obj=pk("offer")),
    "catalog:offer_edit": Route(OWNERS, BOTH, obj=pk("offer")),
    "catalog:offer_delete": Route(OWNERS, BOTH, obj=pk("offer")),
    "catalog:offer_row": Route(obj=pk("offer"), htmx=True),
    # Profiles: any member writes
    "profiles:list": Route(),
    "profiles:create": Route(methods=BOTH),
    "profiles:panel": Route(
        methods=BOTH, query=lambda w: {"profile": w.profile.pk}, scoped=True, htmx=True
    ),
    "profiles:sizing": Route(),
    "profiles:detail": Route(obj=pk("profile")),
    "profiles:edit": Route(methods=BOTH, obj=pk("profile")),
    "profiles:delete": Route(methods=BOTH, obj=pk("profile")),
    # A record that is not a preprocessing run of the task fills nothing (409, or back to the page)
    "profiles:fill_preprocess": Route(
        methods=POST, obj=pk("profile"), data=lambda w: {"record": w.single.pk}, htmx=True
    ),
    # Benchmarks: members and owners write, reviewers read; owners apply probes and hold tokens
    "benchmarks:list": Route(),
    "benchmarks:create": Route(BENCH_WRITERS, BOTH),
    "benchmarks:mlflow": Route(
        BENCH_WRITERS, BOTH, data=lambda w: {"action": "save", "tracking_uri": "ftp://x"}
    ),
    "benchmarks:import": Route(BENCH_WRITERS, BOTH),
    "benchmarks:import_template": Route(),
    "benchmarks:task": Route(obj=pk("profile")),
    "benchmarks:tokens": Route(OWNERS, BOTH),
    "benchmarks:token_revoke": Route(OWNERS, POST, obj=pk("token")),
    "benchmarks:detail": Route(obj=pk("single")),
    "benchmarks:edit": Route(BENCH_WRITERS, BOTH, obj=pk("single")),
    "benchmarks:delete": Route(BENCH_WRITERS, BOTH, obj=pk("multi")),
    "benchmarks:apply_probe": Route(OWNERS, POST, obj=pk("probe")),
    # Reviews: any member drafts; reviewers and owners decide (not the author)
    "reviews:list": Route(),
    "reviews:create": Route(methods=BOTH),
    "reviews:approvals": Route(),
    "reviews:filter_options": Route(query=lambda w: {"task": ""}, htmx=True),
    "reviews:detail": Route(obj=pk("review")),
    "reviews:edit": Route(methods=BOTH, obj=pk("review")),
    "reviews:candidates": Route(methods=BOTH, obj=pk("review")),
    "reviews:submit": Route(methods=POST, obj=pk("review")),
    "reviews:decide": Route(DECIDERS, POST, obj=pk("review")),
    "reviews:band_actions": Route(obj=pk("review")),  # empty for those who do not decide
    "reviews:clone": Route(methods=POST, obj=pk("review")),
    "reviews:reserve_plan": Route(methods=POST, obj=pk("review")),
    "reviews:confirm_readiness": Route(methods=POST, obj=pk("review")),
    "reviews:fix_profile_field": Route(methods=POST, obj=pk("review")),
    # The discussion: every member reads and writes the threads; only a comment's author (the
    # member, here) edits or deletes it (a teammate: 403); another team's: 404, never 403.
    "reviews:comments": Route(
        methods=BOTH, obj=pk("review"), data=lambda w: {"review-text": "matrix post"}
    ),
    "reviews:candidate_comments": Route(
        methods=BOTH, obj=lambda w: {"pk": w.review.pk, "candidate_id": w.candidate.pk},
        data=lambda w: {f"candidate-{w.candidate.pk}-text": ""},
    ),
    "reviews:comment_edit": Route(
        AUTHOR, BOTH, obj=COMMENT, data=lambda w: {f"comment-{comment_of(w).pk}-text": "edited"}
    ),
    "reviews:comment_delete": Route(AUTHOR, POST, obj=COMMENT),
    "checklists:review": Route(obj=pk("review", "review_id")),
    "checklists:open_questions": Route(
        obj=lambda w: {"review_id": w.review.pk, "offer_id": w.candidate.offer_id}
    ),
    "checklists:answer": Route(
        methods=POST, obj=lambda w: {"candidate_id": w.candidate.pk, "question": "q1"}
    ),
    # Scoring
    "scoring:review_evaluation": Route(obj=pk("review", "review_id"), htmx=True),
    "scoring:review_record": Route(obj=pk("review", "review_id")),
    "scoring:history": Route(),
    "scoring:history_options": Route(query=lambda w: {"task": ""}, htmx=True),
    "scoring:snapshot_detail": Route(obj=pk("snapshot")),
    "scoring:snapshot_csv": Route(obj=pk("snapshot")),
    "scoring:snapshot_xlsx": Route(obj=pk("snapshot")),
    "scoring:snapshot_skypilot": Route(obj=pk("snapshot")),
    "scoring:compare": Route(
        query=lambda w: {"a": w.snapshot.pk, "b": w.snapshot.pk}, scoped=True
    ),
    "scoring:quarterly": Route(),
    "scoring:quarterly_refresh": Route(methods=POST),
    # API: Bearer team token or session; the schema is public (documents, holds no data)
    "api:openapi-json": Route(public=True),
    "api:openapi-view": Route(public=True),
    "api:api-root": Route(fixed=404),  # ninja's root: only for reverse(); 404 for everyone
    "api:evaluate": Route(ALL | {TOKEN}, POST, api=True, body=lambda w: {}),
    # Another team's task in the body is "unknown" (422 naming the field, as a wrong id would);
    # the reviewer's role is checked before the body.
    "api:benchmark_post": Route(
        BENCH_WRITERS | {TOKEN}, POST, api=True, body=bench_body, scoped=True, foreign=422,
        cross={REVIEWER: 403},
    ),
    "api:benchmark_get": Route(
        ALL | {TOKEN}, api=True, query=lambda w: {"task": w.profile.pk}, scoped=True,
        foreign=EMPTY,
    ),
    # Actual costs: members and owners write, reviewers read; owners set the over-plan notice
    "actuals:list": Route(),
    "actuals:create": Route(BENCH_WRITERS, BOTH),
    "actuals:import": Route(BENCH_WRITERS, BOTH),
    "actuals:import_template": Route(),
    "actuals:bill": Route(BENCH_WRITERS, BOTH),
    "actuals:threshold": Route(OWNERS, POST, data=lambda w: {"over_plan_pct": "25"}),
    "actuals:bill_settings": Route(
        OWNERS, POST, data=lambda w: {"bill_tag_key": "project", "bill_cost": "effective"}
    ),
    "actuals:notice": Route(obj=pk("review"), htmx=True),
    "actuals:edit": Route(BENCH_WRITERS, BOTH, obj=lambda w: {"pk": actual_of(w).pk}),
    "actuals:delete": Route(BENCH_WRITERS, BOTH, obj=lambda w: {"pk": actual_of(w).pk}),
    # Another team's review in the body is "unknown" (422 naming the field), as for benchmarks.
    "api:actual_post": Route(
        BENCH_WRITERS | {TOKEN}, POST, api=True, body=actual_body, scoped=True, foreign=422,
        cross={REVIEWER: 403},
    ),
    # A bill is the body (CSV); "{}" is no bill: 422 for a writer, 403 for a reviewer's session.
    "api:bill_post": Route(BENCH_WRITERS | {TOKEN}, POST, api=True, body=lambda w: {}),
    "api:snapshot_skypilot": Route(
        ALL | {TOKEN}, api=True, obj=pk("snapshot", "snapshot_id"), scoped=True, foreign=404
    ),
    "api:review_summary": Route(
        ALL | {TOKEN}, api=True, obj=pk("review", "review_id"), scoped=True, foreign=404
    ),
    "api:actual_get": Route(
        ALL | {TOKEN}, api=True, query=lambda w: {"review": w.review.pk}, scoped=True,
        foreign=EMPTY,
    ),
}


def url_names() -> tuple[set[str], list[str]]:
    """Every named pattern ("ns:name"), and the unnamed ones, outside the admin."""
    names: set[str] = set()
    unnamed: list[str] = []

    def walk(resolver: URLResolver, namespace: str, prefix: str) -> None:
        for pattern in resolver.url_patterns:
            route = prefix + str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                space = namespace
                if pattern.namespace:
                    space = f"{namespace}:{pattern.namespace}" if namespace else pattern.namespace
                if space.split(":")[0] == "admin":
                    continue  # the admin needs is_staff: AdminTests
                walk(pattern, space, route)
            elif pattern.name is None:
                unnamed.append(route)
            else:
                names.add(f"{namespace}:{pattern.name}" if namespace else pattern.name)

    walk(get_resolver(), "", "/")
    return names - SKIPPED, unnamed


# Callers --------------------------------------------------------------------------------------

ANON, OUTSIDER, REVOKED = "anonymous", "outsider", "revoked token"


def team_role(role: str) -> str | None:
    """The role in the object's team of the caller's own team (the outsider owns team B)."""
    return {OUTSIDER: OWNER}.get(role, role)


def expected(route: Route, role: str, side: str) -> object:
    if route.fixed is not None:
        return route.fixed
    if route.public:
        return OK
    if role in (ANON, REVOKED):
        if route.anonymous is not None:
            return route.anonymous
        return 401 if route.api else LOGIN
    own_side = "B" if role == OUTSIDER else "A"
    if route.personal is not None and (side != own_side or team_role(role) != route.personal):
        return 404
    if not route.is_scoped or side == own_side:
        return OK if team_role(role) in route.allowed else 403
    return route.cross.get(role, route.foreign)


def matches(want: object, response, route: Route, method: str) -> bool:
    status = response.status_code
    location = response.get("Location", "") or response.get("HX-Redirect", "")
    to_login = location.startswith(reverse("accounts:login"))
    if want == LOGIN:
        return status == 302 and to_login
    if want == OK:
        allowed = OK_READS if method == "GET" and not route.api else OK_STATUSES
        return status in allowed and (route.public or not to_login)
    if want == EMPTY:
        return status == 200 and json.loads(response.content) == []
    return status == want


class Callers:
    """One test client per caller, signed in once (again after a route that signs out)."""

    def __init__(self, world: World):
        self.world = world
        self.users = {
            OUTSIDER: world.outsider,
            MEMBER: world.a.member,
            REVIEWER: world.a.reviewer,
            OWNER: world.a.owner,
        }
        self.clients: dict[str, Client] = {}

    def roles(self, route: Route) -> list[str]:
        roles = [ANON, OUTSIDER, MEMBER, REVIEWER, OWNER]
        return roles + [TOKEN, REVOKED] if route.api else roles

    def client(self, role: str) -> Client:
        if role not in self.clients:
            client = Client(raise_request_exception=False)
            if role in self.users:
                client.force_login(self.users[role])
            self.clients[role] = client
        return self.clients[role]

    def headers(self, role: str, route: Route) -> dict:
        headers = {"HTTP_HX_REQUEST": "true"} if route.htmx else {}
        if role == TOKEN:
            headers["HTTP_AUTHORIZATION"] = f"Bearer {self.world.a.token_raw}"
        elif role == REVOKED:
            headers["HTTP_AUTHORIZATION"] = f"Bearer {self.world.revoked_raw}"
        return headers

    def forget(self) -> None:
        self.clients.clear()


def request(callers: Callers, route: Route, name: str, role: str, method: str, tw: TeamWorld):
    url = reverse(name, kwargs=route.obj(tw) if route.obj else None)
    if route.query:
        url += "?" + urlencode(route.query(tw))
    client = callers.client(role)
    headers = callers.headers(role, route)
    with rolled_back():
        if method == "GET":
            response = client.get(url, **headers)
        elif route.body is not None:
            response = client.post(
                url, json.dumps(route.body(tw)), content_type="application/json", **headers
            )
        else:
            response = client.post(url, route.data(tw) if route.data else {}, **headers)
    if method != "GET":
        cache.clear()  # rolled-back writes must not leave cached pages behind
    if route.logs_out:
        callers.forget()
    return url, response


def describe(want: object) -> str:
    return {LOGIN: "302 → login", OK: "ok", EMPTY: "200 []"}.get(want, str(want))


class AuthorizationMatrixTests:
    def test_it_covers_every_url_pattern(self):
        names, unnamed = url_names()
        missing = sorted(names - MATRIX.keys())
        stale = sorted(MATRIX.keys() - names)
        assert not missing, f"URL names without an entry in MATRIX: {missing}"
        assert not stale, f"MATRIX entries for URL names that no longer exist: {stale}"
        assert not unnamed, f"unnamed URL patterns cannot be checked: {unnamed}"

    def test_every_caller_gets_what_the_matrix_says(self):
        world = build_world()
        callers = Callers(world)
        sides = {"A": world.a, "B": world.b}
        mismatches: list[tuple[str, ...]] = []
        checked = 0
        for name, route in sorted(MATRIX.items()):
            for role in callers.roles(route):
                for side in ("A", "B") if route.is_scoped else ("A",):
                    if side == "B" and role in (ANON, REVOKED):
                        continue  # no different from team A's object for them
                    want = expected(route, role, side)
                    for method in route.methods:
                        url, response = request(callers, route, name, role, method, sides[side])
                        checked += 1
                        if not matches(want, response, route, method):
                            got = str(response.status_code)
                            if response.has_header("Location"):
                                got += f" → {response['Location']}"
                            mismatches.append(
                                (name, role, f"team {side}", method, url, describe(want), got)
                            )
        assert checked > 400
        if mismatches:
            widths = [max(len(row[i]) for row in mismatches) for i in range(7)]
            table = "\n".join(
                "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True))
                for row in mismatches
            )
            pytest.fail(
                f"{len(mismatches)} of {checked} requests answered otherwise "
                f"(url name, caller, object, method, url, expected, got):\n{table}"
            )

    def test_expectations_follow_the_rules(self):
        """The rules the matrix applies, spelled out on one route each."""
        decide = MATRIX["reviews:decide"]
        assert expected(decide, ANON, "A") == LOGIN
        assert expected(decide, OUTSIDER, "A") == 404
        assert expected(decide, MEMBER, "A") == 403
        assert expected(decide, REVIEWER, "A") == OK
        assert expected(decide, REVIEWER, "B") == 404
        assert expected(MATRIX["api:evaluate"], ANON, "A") == 401
        own = MATRIX["notifications:open"]
        assert expected(own, REVIEWER, "A") == OK
        assert expected(own, OWNER, "A") == 404  # a teammate's notification does not exist
        assert expected(own, OUTSIDER, "A") == 404
        assert expected(own, ANON, "A") == LOGIN
        edit = MATRIX["reviews:comment_edit"]
        assert expected(edit, MEMBER, "A") == OK  # the author
        assert expected(edit, OWNER, "A") == 403  # a teammate, even the owner
        assert expected(edit, OUTSIDER, "A") == 404
        assert expected(edit, MEMBER, "B") == 404


class AdminTests:
    """The admin is for staff only: a team owner without is_staff is sent to the admin login."""

    def test_it_sends_a_non_staff_owner_to_the_admin_login(self, client):
        world = build_world()
        client.force_login(world.a.owner)
        login = reverse("admin:login")
        for url in (
            reverse("admin:index"),
            reverse("admin:reviews_review_changelist"),
            reverse("admin:reviews_review_change", args=[world.a.review.pk]),
            reverse("admin:catalog_offer_delete", args=[world.a.offer.pk]),
        ):
            response = client.get(url)
            assert response.status_code == 302, url
            assert response["Location"].startswith(login), (url, response["Location"])
        response = client.post(
            reverse("admin:reviews_review_change", args=[world.a.review.pk]), {"title": "x"}
        )
        assert response.status_code == 302 and response["Location"].startswith(login)
        world.a.review.refresh_from_db()
        assert world.a.review.title == "Review alpha"


class CsrfOnEveryPostTests:
    """CSRF on every POST route of the URLconf, plain and htmx: a signed-in caller without the
    token is refused (403) and nothing is written. A Bearer token needs none (no cookie)."""

    def test_every_post_without_the_token_is_refused(self):
        from django.apps import apps

        world = build_world()
        client = Client(enforce_csrf_checks=True, raise_request_exception=False)
        client.force_login(world.a.owner)
        # URLs first: naming an object may make it (an invitation), before the rows are counted.
        urls = {
            name: reverse(name, kwargs=route.obj(world.a) if route.obj else None)
            for name, route in MATRIX.items()
            if "POST" in route.methods
        }
        rows = {m._meta.label: m.objects.count() for m in apps.get_models()}
        refused: list[str] = []
        for name, route in sorted(MATRIX.items()):
            if "POST" not in route.methods:
                continue
            url = urls[name]
            for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
                with rolled_back():
                    if route.body is not None:
                        response = client.post(url, json.dumps(route.body(world.a)),
                                               content_type="application/json", **headers)
                    else:
                        response = client.post(url, route.data(world.a) if route.data else {},
                                               **headers)
                if response.status_code != 403:
                    refused.append(f"{name} {headers or ''} → {response.status_code}")
        assert not refused, "POSTs accepted without a CSRF token:\n" + "\n".join(refused)
        assert {m._meta.label: m.objects.count() for m in apps.get_models()} == rows

    def test_a_bearer_token_needs_no_csrf_token(self):
        world = build_world()
        client = Client(enforce_csrf_checks=True, raise_request_exception=False)
        route = MATRIX["api:benchmark_post"]
        response = client.post(
            reverse("api:benchmark_post"), json.dumps(route.body(world.a)),
            content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {world.a.token_raw}",
        )
        assert response.status_code == 201


class MassAssignmentTests:
    """Fields a form does not offer cannot be set by posting them anyway."""

    def test_posted_team_author_and_state_are_ignored(self):
        world = build_world()
        a, b = world.a, world.b
        client = Client(raise_request_exception=False)
        client.force_login(a.owner)
        response = client.post(reverse("catalog:site_create"), {
            "code": "mass-1", "name": "Mass", "datacenter": "d", "city": "c", "hub": "h",
            "queue_hours": "0", "team": b.team.pk, "team_id": b.team.pk, "id": b.home.pk,
        })
        assert response.status_code == 302
        from apps.catalog.models import Site

        created = Site.objects.get(code="mass-1")
        assert created.team_id == a.team.pk and created.pk != b.home.pk
        b.home.refresh_from_db()
        assert b.home.team_id == b.team.pk and b.home.name != "Mass"

        version = a.review.version
        client.force_login(a.member)
        client.post(reverse("reviews:edit", args=[a.review.pk]), {
            "title": a.review.title, "version": version, "state": "approved",
            "author": a.owner.pk, "team": b.team.pk, "approvals_required": 0,
        })
        a.review.refresh_from_db()
        assert (a.review.state, a.review.author_id, a.review.team_id) == (
            "submitted", a.member.pk, a.team.pk
        )
        assert a.review.approvals_required >= 1

        client.force_login(a.member)
        client.post(reverse("profiles:edit", args=[a.profile.pk]), {
            "name": "Renamed", "team": b.team.pk, "created_by": b.owner.pk,
        })
        a.profile.refresh_from_db()
        assert a.profile.team_id == a.team.pk


# Content: what an outsider's pages show -------------------------------------------------------
# Status codes alone would pass a signed-in page that lists every team's data. Team A's objects
# get marker strings (in names, titles and notes, and in a fresh snapshot of its review); every
# page the outsider (team B's owner) can ask for must answer without any of them.

MARK = "ZQX7alpha"


def plant_markers(a: TeamWorld) -> list[str]:
    from apps.benchmarks.models import BenchmarkRecord
    from apps.catalog.models import Offer, Site
    from apps.profiles.models import TaskProfile
    from apps.reviews.models import Review
    from apps.reviews.snapshots.services import snapshot_compute

    marks = {
        "site": f"{MARK}-site",
        "offer": f"{MARK}-offer",
        "profile": f"{MARK}-profile",
        "review": f"{MARK}-review",
        "notes": f"{MARK}-benchmark-notes",
        "comment": f"{MARK}-comment",
    }
    Site.objects.filter(pk=a.home.pk).update(name=marks["site"])
    Offer.objects.filter(pk=a.offer.pk).update(name=marks["offer"])
    TaskProfile.objects.filter(pk=a.profile.pk).update(name=marks["profile"])
    Review.objects.filter(pk=a.review.pk).update(title=marks["review"])
    BenchmarkRecord.objects.filter(team=a.team).update(notes=marks["notes"])
    from apps.reviews.comments.services import comment_post

    comment_post(review=a.review, actor=a.member, text=marks["comment"], candidate=a.candidate)
    a.snapshot = snapshot_compute(review_id=a.review.pk)  # its input now names the markers
    cache.clear()
    return sorted(marks.values())


def response_text(response) -> str:
    if response.get("Content-Type", "").startswith(
        "application/vnd.openxmlformats-officedocument"
    ):
        import io

        from openpyxl import load_workbook

        book = load_workbook(io.BytesIO(response.content), read_only=True)
        return "\n".join(
            str(value)
            for sheet in book.worksheets
            for row in sheet.iter_rows(values_only=True)
            for value in row
            if value is not None
        )
    body = b"".join(response) if response.streaming else response.content
    return body.decode("utf-8", errors="replace")


def outsider_leaks(world: World) -> list[tuple[str, str, str]]:
    """(url name, url, marker) for every GET the outsider makes that shows a team-A marker:
    every route of MATRIX read with GET, on team B's objects (its own: lists, dashboards,
    exports, API lists) and, for routes naming an object, on team A's (which must be 404)."""
    callers = Callers(world)
    sides = {"A": world.a, "B": world.b}
    leaks: list[tuple[str, str, str]] = []
    for name, route in sorted(MATRIX.items()):
        if "GET" not in route.methods or route.logs_out:
            continue
        for side in ("A", "B") if route.is_scoped else ("B",):
            url, response = request(callers, route, name, OUTSIDER, "GET", sides[side])
            text = response_text(response)
            leaks.extend((name, url, m) for m in world.markers if m in text)
    return leaks


def world_with_markers() -> World:
    world = build_world()
    world.markers = plant_markers(world.a)
    return world


class ContentTests:
    def test_an_outsider_never_sees_another_teams_data(self):
        world = world_with_markers()
        # Team A's own owner does see them: the markers are where the pages show data.
        owner = Client()
        owner.force_login(world.a.owner)
        seen = {
            m
            for path in (
                reverse("catalog:offer_list"),
                reverse("profiles:list"),
                reverse("reviews:list"),
                reverse("benchmarks:detail", kwargs={"pk": world.a.single.pk}),
                reverse("reviews:detail", kwargs={"pk": world.a.review.pk}),
            )
            for m in world.markers
            if m in owner.get(path).content.decode()
        }
        assert seen == set(world.markers)
        leaks = outsider_leaks(world)
        assert not leaks, "team A's data shown to team B's owner:\n" + "\n".join(
            "  ".join(row) for row in leaks
        )

    def test_the_content_check_reports_a_list_that_drops_its_team_filter(self, monkeypatch):
        # The offer list's queryset loses its team filter (as if the view read Offer.objects):
        # the check must name that page and the offer's marker.
        from apps.accounts.models import TeamScopedQuerySet
        from apps.catalog.models import Offer

        scoped = TeamScopedQuerySet.for_team

        def unfiltered(self, team):
            return self.all() if self.model is Offer else scoped(self, team)

        world = world_with_markers()
        monkeypatch.setattr(TeamScopedQuerySet, "for_team", unfiltered)
        leaks = outsider_leaks(world)
        assert ("catalog:offer_list", reverse("catalog:offer_list"), f"{MARK}-offer") in leaks
