"""Sign-off under database contention: a lock timeout, a deadlock and a serialization failure
are retried, or answered as a clear conflict; never a 500, never a half-written sign-off.

PostgreSQL only, with two real connections: the test's own (Django) and a second psycopg
connection to the same test database, held by a thread that plays the other transaction.
tests/reviews/test_concurrency.py races two sign-offs through the row lock; this file provokes
the failures that lock cannot prevent.
"""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from unittest import mock

import psycopg
import pytest
from django.db import OperationalError, connection
from django.urls import reverse

from apps.reviews.models import AuditEvent, Review, SignOff
from apps.reviews.services import signoff as signoff_service
from apps.reviews.services.signoff import signoff_create
from apps.reviews.workflow import ReviewConflict
from tests.security.helpers import build_team
from tests.services import need_postgres

WAIT = 10  # seconds: an upper bound for every wait, never reached when things work


def other_connection() -> psycopg.Connection:
    """A second connection to the test database, outside Django."""
    s = connection.settings_dict
    return psycopg.connect(
        dbname=s["NAME"], user=s["USER"], password=s["PASSWORD"], host=s["HOST"] or None,
        port=s["PORT"] or None, autocommit=False,
    )


def session(sql: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql)


@contextmanager
def django_session(*settings: str):
    """Session settings on Django's connection for the block; a fresh connection afterwards."""
    connection.ensure_connection()
    try:
        for statement in settings:
            session(statement)
        yield
    finally:
        connection.close()


def blocked_backends(cur) -> int:
    """Backends of this database waiting on a lock, other than the caller."""
    cur.execute(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
        "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
    )
    return cur.fetchone()[0]


def wait_until(condition, timeout: float = WAIT) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        time.sleep(0.02)


class Holder(threading.Thread):
    """The other transaction: runs `script(cursor, events)` on its own connection."""

    def __init__(self, script):
        super().__init__(daemon=True)
        self.script = script
        self.ready = threading.Event()
        self.error: BaseException | None = None
        self.log: list[str] = []

    def run(self) -> None:
        try:
            with other_connection() as conn, conn.cursor() as cur:
                self.script(conn, cur, self)
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            self.error = exc
            self.ready.set()

    def finish(self) -> None:
        self.join(WAIT)
        assert not self.is_alive(), "the other transaction did not finish"
        assert self.error is None, self.error


@pytest.fixture
def alpha(transactional_db):
    need_postgres()
    world = build_team("alpha")
    assert world.review.state == "submitted"
    return world


def decide(world, decision: str = "approve"):
    review = Review.objects.get(pk=world.review.pk)
    return signoff_create(
        review=review,
        reviewer=world.reviewer,
        decision=decision,
        comment="" if decision == "approve" else "Not this one.",
        snapshot_id=world.snapshot.pk,
        version=review.version,
    )


class Outcomes(list):
    """What each attempt of the sign-off transaction raised (None: it succeeded)."""

    def __init__(self):
        super().__init__()
        self.failed = threading.Event()


@contextmanager
def attempts_recorded():
    outcomes = Outcomes()
    original = signoff_service._signoff_once

    def recorded(**kwargs):
        try:
            result = original(**kwargs)
        except BaseException as exc:
            outcomes.append(exc)
            outcomes.failed.set()
            raise
        outcomes.append(None)
        return result

    with mock.patch.object(signoff_service, "_signoff_once", side_effect=recorded):
        yield outcomes


def assert_untouched(world, events_before: int) -> None:
    review = Review.objects.get(pk=world.review.pk)
    assert review.state == "submitted"
    assert review.version == world.review.version
    assert not SignOff.objects.filter(review=review).exists()
    assert AuditEvent.objects.filter(review=review).count() == events_before


def assert_approved_once(world) -> None:
    review = Review.objects.get(pk=world.review.pk)
    assert review.state == "approved"
    assert SignOff.objects.filter(review=review).count() == 1
    assert AuditEvent.objects.filter(review=review, action="signed_off").count() == 1
    assert AuditEvent.objects.filter(review=review, action="approved").count() == 1
    assert review.frozen_input == world.snapshot.input


@pytest.mark.django_db(transaction=True)
class LockTimeoutTests:
    def test_it_retries_once_and_succeeds_when_the_lock_is_released(self, alpha):
        review_id = alpha.review.pk
        with attempts_recorded() as outcomes:

            def hold_review(conn, cur, me):
                cur.execute("SELECT id FROM reviews_review WHERE id = %s FOR UPDATE", [review_id])
                me.ready.set()
                outcomes.failed.wait(WAIT)  # the first attempt gave up waiting: let go
                conn.rollback()

            holder = Holder(hold_review)
            holder.start()
            holder.ready.wait(WAIT)
            with django_session("SET lock_timeout = '500ms'"):
                signoff = decide(alpha)
        holder.finish()
        assert isinstance(outcomes[0], OperationalError)
        assert "lock timeout" in str(outcomes[0])
        assert outcomes[1:] == [None]
        assert signoff.decision == "approve"
        assert_approved_once(alpha)

    def test_it_answers_a_clear_conflict_when_the_lock_stays_held(self, alpha):
        review_id = alpha.review.pk
        events = AuditEvent.objects.filter(review_id=review_id).count()
        release = threading.Event()

        def hold_review(conn, cur, me):
            cur.execute("SELECT id FROM reviews_review WHERE id = %s FOR UPDATE", [review_id])
            me.ready.set()
            release.wait(WAIT)
            conn.rollback()

        holder = Holder(hold_review)
        holder.start()
        holder.ready.wait(WAIT)
        try:
            with django_session("SET lock_timeout = '200ms'"), attempts_recorded() as outcomes:
                with pytest.raises(ReviewConflict) as refused:
                    decide(alpha)
        finally:
            release.set()
            holder.finish()
        assert len(outcomes) == 2 and all(isinstance(o, OperationalError) for o in outcomes)
        assert "at the same moment" in refused.value.message
        assert_untouched(alpha, events)
        # Once the other transaction is gone, the same decision goes through.
        decide(alpha)
        assert_approved_once(alpha)


@pytest.mark.django_db(transaction=True)
class DeadlockTests:
    def test_a_deadlock_is_retried_and_the_sign_off_recorded_once(self, alpha):
        """The other transaction locks the snapshot row first, then wants the review row; the
        sign-off holds the review row and, at commit, checks its foreign key to the snapshot:
        a cycle. PostgreSQL aborts the sign-off (its deadlock check runs first), which retries
        once the other transaction is done."""
        review_id, snapshot_id = alpha.review.pk, alpha.snapshot.pk

        def opposite_order(conn, cur, me):
            cur.execute("SET deadlock_timeout = '10s'")  # the sign-off's check fires first
            cur.execute(
                "SELECT id FROM scoring_evaluationsnapshot WHERE id = %s FOR UPDATE", [snapshot_id]
            )
            me.ready.set()
            wait_until(lambda: blocked_backends(cur) > 0)  # the sign-off waits on the snapshot
            me.log.append("asking for the review")
            cur.execute("SELECT id FROM reviews_review WHERE id = %s FOR UPDATE", [review_id])
            me.log.append("got the review")
            wait_until(lambda: blocked_backends(cur) > 0)  # the retry waits on the review
            conn.rollback()

        holder = Holder(opposite_order)
        holder.start()
        holder.ready.wait(WAIT)
        with django_session("SET deadlock_timeout = '300ms'"), attempts_recorded() as outcomes:
            signoff = decide(alpha)
        holder.finish()
        assert holder.log == ["asking for the review", "got the review"]
        assert isinstance(outcomes[0], OperationalError)
        assert "deadlock detected" in str(outcomes[0])
        assert outcomes[1:] == [None]
        assert signoff.pk is not None
        assert_approved_once(alpha)


@pytest.mark.django_db(transaction=True)
class SerializationFailureTests:
    def test_a_serialization_failure_is_retried(self, alpha):
        """Under REPEATABLE READ, locking a row that another transaction changed and committed
        meanwhile fails with "could not serialize access"; the retry starts a fresh snapshot."""
        review_id = alpha.review.pk

        def concurrent_update(conn, cur, me):
            cur.execute(
                "UPDATE reviews_review SET updated_at = updated_at WHERE id = %s", [review_id]
            )
            me.ready.set()
            wait_until(lambda: blocked_backends(cur) > 0)  # the sign-off waits on the row
            conn.commit()

        holder = Holder(concurrent_update)
        holder.start()
        holder.ready.wait(WAIT)
        isolation = "SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL REPEATABLE READ"
        with django_session(isolation), attempts_recorded() as outcomes:
            signoff = decide(alpha)
        holder.finish()
        assert isinstance(outcomes[0], OperationalError)
        assert "could not serialize access" in str(outcomes[0])
        assert outcomes[1:] == [None]
        assert signoff.decision == "approve"
        assert_approved_once(alpha)


@pytest.mark.django_db
class DecideViewConflictTests:
    """The page's side: a sign-off lost to contention answers with a message, never a 500."""

    @pytest.fixture
    def world(self, db):
        return build_team("alpha")

    def post(self, client, world, **headers):
        client.force_login(world.reviewer)
        data = {
            "decision": "approve",
            "comment": "",
            "snapshot": world.snapshot.pk,
            "version": world.review.version,
        }
        deadlock = OperationalError("deadlock detected")
        with mock.patch.object(signoff_service, "_signoff_once", side_effect=deadlock):
            response = client.post(reverse("reviews:decide", args=[world.review.pk]), data,
                                   **headers)
        # Every attempt lost to contention: nothing recorded, the review as it was.
        world.review.refresh_from_db()
        assert (world.review.state, world.review.version) == ("submitted", data["version"])
        return response

    def test_a_full_page_post_redirects_with_the_reason(self, client, world):
        response = self.post(client, world)
        detail = reverse("reviews:detail", args=[world.review.pk])
        assert response.status_code == 302
        assert response["Location"] == detail
        page = client.get(detail)
        assert "at the same moment" in page.content.decode()
        assert not SignOff.objects.exists()
        assert Review.objects.get(pk=world.review.pk).state == "submitted"

    def test_an_htmx_post_answers_409_and_sends_to_the_fresh_page(self, client, world):
        response = self.post(client, world, HTTP_HX_REQUEST="true")
        assert response.status_code == 409
        assert response["HX-Redirect"] == reverse("reviews:detail", args=[world.review.pk])
        assert not SignOff.objects.exists()
