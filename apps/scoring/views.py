"""Pages of the scoring app: the evaluation block and the decision record of a review, the history
of snapshots, one snapshot, two snapshots side by side, the exports and the quarterly cost
review."""

from __future__ import annotations

from functools import cache

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import condition, require_GET, require_POST

from apps.accounts.access import get_scoped_or_404, require_current_team
from apps.reviews.comments.selectors import with_comment_count
from apps.reviews.models import Review
from apps.reviews.snapshots import selectors as snapshot_selectors
from apps.web.fragments import cached_fragments, exact_fragments, page_etag
from apps.web.htmx import render_shape, render_shared, vary, wants_fragment
from apps.web.paging import page_by_ids
from apps.web.typeahead import TypeAheadField, options_response

from . import exports, history_list, launch, record, selectors
from .forms import HistoryFilterForm
from .history_rows import history_rows
from .quarterly import actuals_summary
from .services.quarterly_review import quarterly_refresh_request, quarterly_stale

STOP_POLLING = 286  # htmx: stop polling
PAGE_SIZE = 25


def _review_url(review_id: int) -> str | None:
    try:
        return reverse("reviews:detail", args=[review_id])
    except NoReverseMatch:
        return None


@login_required
@require_GET
def review_evaluation(request: HttpRequest, review_id: int) -> HttpResponse:
    """The evaluation block of a review: progress while computing, then table and charts.

    htmx polls it; a plain request (no JavaScript) goes to the review page, which includes it.
    """
    review = get_scoped_or_404(
        Review.objects.select_related("task", "team"), request.user, pk=review_id
    )
    if not wants_fragment(request):
        target = _review_url(review.pk)
        if target:
            return redirect(target)
    context = snapshot_selectors.review_evaluation(review)
    # The figures arrive: the decision band at the top of the page comes with them (out of band).
    context["oob_summary"] = True
    response = vary(render(request, "scoring/_review_evaluation.html", context))
    if context["snapshot"] is not None or context["worker_silent"]:
        response.status_code = STOP_POLLING
    return response


@login_required
@require_GET
def review_record(request: HttpRequest, review_id: int) -> HttpResponse:
    """The review's decision record: one page to print or save as PDF (apps.scoring.record)."""
    review = get_scoped_or_404(
        with_comment_count(Review.objects).select_related(
            "team", "author", "task", "task__home_site", "task__data_site", "task__result_site"
        ),
        request.user,
        pk=review_id,
    )
    context = {**record.decision_record(review), "review_url": _review_url(review.pk)}
    return render(request, "scoring/record.html", context)


def _history_filters(request: HttpRequest) -> tuple[HistoryFilterForm, history_list.HistoryFilters]:
    """The filter form as submitted and its valid filters: the task and the reviewer as named in
    their type-ahead boxes (apps.web.typeahead), read only when given."""
    form = HistoryFilterForm(request.GET or None, memberships=request.memberships)
    if not form.is_bound:
        return form, history_list.HistoryFilters()
    form.is_valid()
    named = {}
    typeaheads = history_list.history_typeaheads(request.user, len(request.memberships) > 1)
    for name, typeahead in typeaheads.items():
        found = typeahead.resolve(form.cleaned_data.get(name))
        typeahead.apply(form, name, found)
        named[name] = found.ids
    return form, form.filters(named)


@login_required
@require_GET
@condition(etag_func=lambda request: page_etag(request))
def history(request: HttpRequest) -> HttpResponse:
    """Every snapshot of the user's teams, filtered and paginated."""
    query = request.GET.copy()
    query.pop("page", None)
    common = {
        "querystring_base": f"{query.urlencode()}&" if query else "",
        "filtered": any(v for k, v in request.GET.items() if k != "page"),
    }

    page = "scoring/history.html"
    filtered = cache(lambda: _history_filters(request))

    def filters() -> str:
        return render_shared(request, page, "history-filters", {**common, "form": filtered()[0]})

    def results() -> str:
        filters = filtered()[1] if common["filtered"] else history_list.HistoryFilters()
        snapshots = history_list.history_snapshots(request.user, filters)
        rows = page_by_ids(
            snapshots, request.GET.get("page"), PAGE_SIZE, rows=history_list.history_rows
        )
        history_list.label_rows(rows.object_list)
        context = {**common, "page_obj": rows, "rows_html": history_rows(rows.object_list)}
        return render_shared(request, page, "history-results", context)

    # The same for everyone in the same teams until one of them changes.
    query = sorted(request.GET.lists())
    # The filter form shows of the teams' data only their names, and, for a type-ahead box given
    # a value, the rows it names: without one, it is kept under an exact key that names all it
    # shows (the query, the teams' names), and a write of the teams leaves it as it is.
    fields = HistoryFilterForm.base_fields.items()
    exact = not any(request.GET.get(n) for n, f in fields if isinstance(f, TypeAheadField))
    html = cached_fragments(
        page,
        team_ids=[m.team_id for m in request.memberships],
        parts=(query,),
        fragments={"results": results} if exact else {"filters": filters, "results": results},
    )
    if exact:
        teams = [(m.team_id, m.team.name) for m in request.memberships]
        html.update(exact_fragments(page, parts=(query, teams), fragments={"filters": filters}))
    context = {"filters_html": html["filters"], "results_html": html["results"]}
    return render_shape(request, page, "history-results", context)


@login_required
@require_GET
def history_options(request: HttpRequest) -> HttpResponse:
    """The options of the history's type-ahead box being typed in (?task=… or ?reviewer=…): at
    most twenty of the tasks of the user's teams, or of those who signed off, holding the text."""
    typeaheads = history_list.history_typeaheads(request.user, len(request.memberships) > 1)
    name = next((n for n in typeaheads if n in request.GET), None)
    if name is None:
        return HttpResponse(
            _("Give task or reviewer."), status=422, content_type="text/plain; charset=utf-8"
        )
    return options_response(typeaheads[name].options(request.GET.get(name)))


@login_required
@require_GET
def snapshot_detail(request: HttpRequest, pk: int) -> HttpResponse:
    snapshot = selectors.snapshot_for_user(request.user, pk)
    context = {
        **snapshot_selectors.snapshot_display(snapshot),
        "previous_id": selectors.previous_snapshot_id(snapshot),
        "review_url": _review_url(snapshot.review_id),
    }
    return render(request, "scoring/snapshot_detail.html", context)


def _picked(request: HttpRequest) -> list[str]:
    picked = [v for v in (request.GET.get("a"), request.GET.get("b")) if v]
    if len(picked) < 2:
        picked = [v for v in request.GET.getlist("s") if v]
    return picked[:2]


@login_required
@require_GET
def compare(request: HttpRequest) -> HttpResponse:
    """Two snapshots side by side: ?a=<pk>&b=<pk> (or two ?s= from the history checkboxes);
    &differences=1 shows only what differs."""
    picked = _picked(request)
    if len(picked) < 2:
        return render(request, "scoring/compare.html", {"comparison": None}, status=200)
    a = selectors.snapshot_for_user(request.user, picked[0])
    b = selectors.snapshot_for_user(request.user, picked[1])
    if a.created_at > b.created_at or (a.created_at == b.created_at and a.pk > b.pk):
        a, b = b, a  # older on the left
    comparison = selectors.snapshot_comparison(
        a, b, differences_only=request.GET.get("differences") == "1"
    )
    return render(request, "scoring/compare.html", {"comparison": comparison})


@login_required
@require_GET
def snapshot_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """One part of the snapshot as CSV: ?part=table (the default), findings or signoffs."""
    snapshot = selectors.snapshot_for_user(request.user, pk)
    part = request.GET.get("part") or "table"
    if part not in exports.CSV_PARTS:
        message = _("part: must be one of %(parts)s.") % {"parts": ", ".join(exports.CSV_PARTS)}
        return HttpResponse(message, status=400, content_type="text/plain; charset=utf-8")
    response = HttpResponse(
        exports.snapshot_csv(snapshot, part), content_type="text/csv; charset=utf-8"
    )
    name = exports.filename(snapshot, "csv", part)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
@require_GET
def snapshot_skypilot(request: HttpRequest, pk: int) -> HttpResponse:
    """The chosen plan as a SkyPilot task YAML (apps/scoring/launch.py); when it cannot be, back
    to the snapshot's page saying why."""
    snapshot = selectors.snapshot_for_user(request.user, pk)
    try:
        text = launch.skypilot_yaml(snapshot)
    except launch.NotLaunchable as exc:
        messages.error(request, exc.message)
        return redirect("scoring:snapshot_detail", pk=snapshot.pk)
    response = HttpResponse(text, content_type="application/yaml; charset=utf-8")
    name = f"review-{snapshot.review_id}-snapshot-{snapshot.pk}-skypilot.yaml"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
@require_GET
def snapshot_xlsx(request: HttpRequest, pk: int) -> HttpResponse:
    snapshot = selectors.snapshot_for_user(request.user, pk)
    response = HttpResponse(
        exports.snapshot_xlsx(snapshot),
        content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    )
    response["Content-Disposition"] = f'attachment; filename="{exports.filename(snapshot, "xlsx")}"'
    return response


def _task_done(task_id: str) -> bool:
    from celery.result import AsyncResult

    from config.celery import app

    try:
        return AsyncResult(task_id, app=app).ready()
    except Exception:  # noqa: BLE001 - no result backend: nothing to wait for
        return True


@login_required
@require_GET
def quarterly(request: HttpRequest) -> HttpResponse:
    """The current team's quarterly cost review; polls while a refresh is running."""
    team = require_current_team(request)
    task_id = request.GET.get("task", "")[:64]
    refreshing = bool(task_id) and not _task_done(task_id)
    figures = selectors.quarterly_for_team(team)
    # An actual cost or a sign-off since they were computed: recomputed, never shown as current.
    stale = quarterly_stale(figures["rows"], team)
    if stale and not refreshing:
        refresh = quarterly_refresh_request(team=team)
        if refresh.task_id is None:  # done in this request (no worker)
            figures, stale = selectors.quarterly_for_team(team), False
        else:
            task_id, refreshing = refresh.task_id, True
    context = {
        **figures,
        **actuals_summary(figures["rows"]),
        "team": team,
        "task_id": task_id if refreshing else "",
        "refreshing": refreshing,
        "stale": stale,
    }
    response = render_shape(request, "scoring/quarterly.html", "quarterly-review", context)
    if wants_fragment(request) and task_id and not refreshing:
        response.status_code = STOP_POLLING
    return response


@login_required
@require_POST
def quarterly_refresh(request: HttpRequest) -> HttpResponse:
    """Refresh now: enqueue the refresh (or run it, without a worker) and show its progress."""
    team = require_current_team(request)
    refresh = quarterly_refresh_request(team=team)
    if refresh.queue_down:
        messages.warning(
            request,
            _(
                "The task queue is unavailable, so the figures were refreshed right away "
                "instead of in the background."
            ),
        )
    url = reverse("scoring:quarterly")
    if refresh.task_id:
        url += f"?task={refresh.task_id}"
    return redirect(url)
