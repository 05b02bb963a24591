"""Pages of benchmark records: list, form (kind-dependent fields by htmx), detail, CSV import,
the task comparison with the scaling chart, applying a probe to its link, and team API tokens."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import ObjectDoesNotExist
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from apps.accounts.access import (
    can_write,
    get_scoped_or_404,
    require_current_team,
    require_role,
)
from apps.accounts.models import ApiToken, Role
from apps.accounts.tokens import api_token_create, api_token_revoke
from apps.profiles.models import TaskProfile
from apps.web.concurrency import StaleVersion, stale_form
from apps.web.htmx import render_shape, vary
from apps.web.ingest import form_save, one_import_per_person, upload_content
from apps.web.paging import id_param
from apps.web.search import MAX_QUERY

from . import selectors, services
from .csv_import import COLUMNS, template_csv
from .forms import (
    BenchmarkForm,
    CsvUploadForm,
    TokenCreateForm,
    initial_from_query,
    initial_from_record,
)
from .models import BenchmarkKind, BenchmarkRecord, Source
from .validation import record_warnings

PAGE_SIZE = 25
# Writers of benchmark records: members (the engineers who run them) and owners. Reviewers judge
# the evidence and do not produce it.
WRITERS = (Role.MEMBER,)
NEW_RECORD_DEFAULTS = {
    BenchmarkKind.SINGLE: {"nodes": 1, "gpus_per_node": 8},
    BenchmarkKind.MULTI: {"nodes": 2, "gpus_per_node": 8},
}


def _record_for_user(request: HttpRequest, pk: int) -> BenchmarkRecord:
    try:
        return selectors.benchmark_detail(record_id=pk, user=request.user)
    except ObjectDoesNotExist as exc:
        raise Http404("Not found") from exc


def _warn(request: HttpRequest, record: BenchmarkRecord) -> None:
    """Saved, but worth a second look (an output larger than the input)."""
    for field_messages in record_warnings(record).values():
        for message in field_messages:
            messages.warning(request, message)


@login_required
def benchmark_list(request: HttpRequest) -> HttpResponse:
    team = require_current_team(request)
    require_role(request, team)
    kind = request.GET.get("kind") or None
    if kind not in BenchmarkKind.values:
        kind = None
    source = request.GET.get("source") or None
    if source not in Source.values:
        source = None
    filters = {
        "task": id_param(request, "task"),
        "kind": kind,
        "offer": id_param(request, "offer"),
        "source": source,
        "q": request.GET.get("q", "").strip()[:MAX_QUERY],
    }
    records = selectors.benchmark_list(team=team, **filters)
    page_obj = Paginator(records, PAGE_SIZE).get_page(request.GET.get("page"))
    querystring = urlencode({k: v for k, v in filters.items() if v})
    context = {
        "page_obj": page_obj,
        "records": page_obj.object_list,
        "filters": filters,
        "querystring_base": f"{querystring}&" if querystring else "",
        "can_write": can_write(request, team),
        "tasks_with_runs": selectors.tasks_with_runs(team=team),
        **selectors.filter_choices(team=team),
    }
    return render_shape(request, "benchmarks/list.html", "benchmark-list", context)


def _form_page(
    request: HttpRequest, form: BenchmarkForm, record=None, *, status: int = 200
) -> HttpResponse:
    context = {"form": form, "record": record, "kinds": BenchmarkKind.choices}
    if request.method == "GET":
        return render_shape(request, "benchmarks/form.html", "benchmark-form", context)
    return vary(render(request, "benchmarks/form.html", context, status=status))


@login_required
@require_http_methods(["GET", "POST"])
def benchmark_create(request: HttpRequest) -> HttpResponse:
    team = require_current_team(request)
    require_role(request, team, *WRITERS)
    kind = request.POST.get("kind") or request.GET.get("kind") or BenchmarkKind.SINGLE
    if request.method == "POST":
        form = BenchmarkForm(request.POST, team=team, kind=kind)
        record = form_save(form, lambda data: services.benchmark_create(
            team=team, data=data, source=Source.FORM, created_by=request.user))
        if record is not None:
            messages.success(request, _("Benchmark record #%(id)s saved.") % {"id": record.pk})
            _warn(request, record)
            return redirect("benchmarks:detail", pk=record.pk)
        return _form_page(request, form)
    initial = {**NEW_RECORD_DEFAULTS.get(kind, {}), **initial_from_query(request.GET)}
    return _form_page(request, BenchmarkForm(initial=initial, team=team, kind=kind))


@login_required
@require_http_methods(["GET", "POST"])
def benchmark_edit(request: HttpRequest, pk: int) -> HttpResponse:
    record = _record_for_user(request, pk)
    require_role(request, record.team, *WRITERS)
    kind = request.POST.get("kind") or request.GET.get("kind") or record.kind
    if request.method == "POST":
        form = BenchmarkForm(request.POST, team=record.team, kind=kind)
        status = 200
        if form.is_valid():
            try:
                services.benchmark_update(
                    record=record,
                    data=form.data_for_service(),
                    version=form.cleaned_data.get("version"),
                )
            except services.BenchmarkValidationError as exc:
                form.add_service_errors(exc)
            except StaleVersion:
                # Someone saved first: their record stays; this one comes back to re-apply.
                def factory(data):
                    stored = _record_for_user(request, pk)
                    if data is not None:
                        return BenchmarkForm(data, team=stored.team, kind=kind)
                    return BenchmarkForm(
                        initial=initial_from_record(stored), team=stored.team, kind=kind
                    )

                form, status = stale_form(form, factory), 409
            else:
                messages.success(request, _("Benchmark record #%(id)s updated.") % {"id": pk})
                _warn(request, record)
                return redirect("benchmarks:detail", pk=pk)
        return _form_page(request, form, record, status=status)
    initial = {**initial_from_record(record), **initial_from_query(request.GET)}
    return _form_page(request, BenchmarkForm(initial=initial, team=record.team, kind=kind), record)


@login_required
def benchmark_detail(request: HttpRequest, pk: int) -> HttpResponse:
    record = _record_for_user(request, pk)
    membership = require_role(request, record.team)
    context = {
        "record": record,
        "can_write": can_write(request, record.team),
        "is_team_owner": membership.role == Role.OWNER,
        "warnings": record_warnings(record),
        **selectors.probe_link_status(probe=record),
    }
    return render(request, "benchmarks/detail.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def benchmark_delete(request: HttpRequest, pk: int) -> HttpResponse:
    record = _record_for_user(request, pk)
    require_role(request, record.team, *WRITERS)
    if request.method == "POST":
        try:
            services.benchmark_delete(record=record)
        except services.BenchmarkValidationError as exc:
            for message in exc.errors.get("__all__", []):
                messages.error(request, message)
            return redirect("benchmarks:detail", pk=pk)
        messages.success(request, _("Benchmark record #%(id)s deleted.") % {"id": pk})
        return redirect("benchmarks:list")
    return render(request, "benchmarks/delete.html", {"record": record})


@login_required
@require_POST
def probe_apply(request: HttpRequest, pk: int) -> HttpResponse:
    record = _record_for_user(request, pk)
    require_role(request, record.team, Role.OWNER)
    try:
        link = services.probe_apply(probe=record)
    except services.ProbeNotApplicable as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request,
            _("Link %(link)s now carries %(bw)s Gbit/s and %(rtt)s ms, measured by probe #%(id)s.")
            % {"link": str(link), "bw": f"{link.bandwidth_gbps:g}", "rtt": f"{link.rtt_ms:g}",
               "id": record.pk},
        )
    return redirect("benchmarks:detail", pk=pk)


@login_required
@require_http_methods(["GET", "POST"])
@one_import_per_person
def benchmark_import(request: HttpRequest) -> HttpResponse:
    """Upload → preview with every row's errors → confirm: all rows saved in one transaction, or
    none. Between preview and confirm the content travels in a hidden field and is re-validated."""
    team = require_current_team(request)
    require_role(request, team, *WRITERS)
    context = {"form": CsvUploadForm(), "columns": COLUMNS, "result": None, "content": "",
               "import_url": reverse("benchmarks:import")}
    if request.method == "POST":
        form = CsvUploadForm(request.POST, request.FILES)
        context["form"] = form
        content = upload_content(form)
        if content is not None:
            confirm = request.POST.get("confirm") == "1"
            result = services.benchmark_import_csv(
                team=team, content=content, created_by=request.user, dry_run=not confirm
            )
            if result.saved:
                messages.success(
                    request,
                    _("Imported %(n)s benchmark records.") % {"n": len(result.rows)},
                )
                return redirect(reverse("benchmarks:list") + "?" + urlencode({"source": "csv"}))
            context.update(
                result=result, content=content, confirmed=confirm,
                warnings_by_line=services.import_warnings(result),
            )
    return render(request, "benchmarks/import.html", context)


@login_required
def benchmark_import_template(request: HttpRequest) -> HttpResponse:
    require_role(request, require_current_team(request))
    response = HttpResponse(template_csv(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="benchmarks-template.csv"'
    return response


@login_required
def task_comparison(request: HttpRequest, pk: int) -> HttpResponse:
    profile = get_scoped_or_404(TaskProfile.objects.select_related("team"), request.user, pk=pk)
    require_role(request, profile.team)
    comparison = selectors.task_comparison(profile=profile)
    context = {
        "comparison": comparison,
        "profile": profile,
        "currency": profile.team.currency,
        "can_write": can_write(request, profile.team),
    }
    return render(request, "benchmarks/task.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def token_list(request: HttpRequest) -> HttpResponse:
    """Owners list, create and revoke the team's API tokens; a new token is shown once."""
    team = require_current_team(request)
    require_role(request, team, Role.OWNER)
    form = TokenCreateForm(request.POST or None)
    created = None
    if request.method == "POST" and form.is_valid():
        token, raw = api_token_create(
            team=team, name=form.cleaned_data["name"], created_by=request.user
        )
        created = {"token": token, "raw": raw}
        form = TokenCreateForm()
    context = {
        "form": form,
        "created": created,
        "tokens": selectors.token_list(team=team),
        "api_url": request.build_absolute_uri("/api/v1/benchmarks"),
    }
    response = render(request, "benchmarks/tokens.html", context)
    # The raw token is in this page only: never cache it.
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_POST
def token_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    token = get_scoped_or_404(ApiToken.objects.select_related("team"), request.user, pk=pk)
    require_role(request, token.team, Role.OWNER)
    api_token_revoke(token=token)
    messages.success(request, _("Token “%(name)s” revoked.") % {"name": token.name})
    return redirect("benchmarks:tokens")
