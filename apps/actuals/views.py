"""Pages of actual costs: the list (with the team's over-plan threshold), the form, its edit and
delete, the CSV import and the provider bill import (preview, manual assignment, confirm)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from apps.accounts.access import (
    can_write,
    get_scoped_or_404,
    membership_for,
    require_current_team,
    require_role,
)
from apps.accounts.fields import MAX_PK
from apps.accounts.models import Role
from apps.reviews.models import Review
from apps.web.concurrency import StaleVersion, stale_form
from apps.web.htmx import render_shape, vary
from apps.web.ingest import form_save, one_import_per_person, template_csv, upload_content
from apps.web.paging import id_param

from . import bills, selectors, services
from .forms import (
    ActualForm,
    BillSettingsForm,
    ThresholdForm,
    UploadForm,
    initial_from_record,
)
from .models import ActualCost, BillCost, Source

PAGE_SIZE = 25
# Writers: members (the engineers who run the jobs) and owners; reviewers read.
WRITERS = (Role.MEMBER,)


def _record_for_user(request: HttpRequest, pk: int) -> ActualCost:
    try:
        return selectors.actual_detail(record_id=pk, user=request.user)
    except ActualCost.DoesNotExist as exc:
        raise Http404("Not found") from exc


@login_required
def actual_list(request: HttpRequest) -> HttpResponse:
    team = require_current_team(request)
    membership = require_role(request, team)
    source = request.GET.get("source") or None
    filters = {
        "review": id_param(request, "review"),
        "source": source if source in Source.values else None,
    }
    page_obj = Paginator(selectors.actual_list(team=team, **filters), PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    querystring = urlencode({k: v for k, v in filters.items() if v})
    context = {
        "page_obj": page_obj,
        "records": page_obj.object_list,
        "filters": filters,
        "sources": Source.choices,
        "querystring_base": f"{querystring}&" if querystring else "",
        "can_write": can_write(request, team),
        "is_owner": membership.role == Role.OWNER,
        "threshold": selectors.over_plan_threshold(team),
    }
    return render_shape(request, "actuals/list.html", "actual-list", context)


def _form_page(request, form, record=None, *, status=200) -> HttpResponse:
    return vary(render(request, "actuals/form.html", {"form": form, "record": record},
                       status=status))


def _saved_url(record: ActualCost) -> str:
    return reverse("actuals:list") + "?" + urlencode({"review": record.review_id})


@login_required
@require_http_methods(["GET", "POST"])
def actual_create(request: HttpRequest) -> HttpResponse:
    team = require_current_team(request)
    require_role(request, team, *WRITERS)
    if request.method == "POST":
        form = ActualForm(request.POST, team=team)
        record = form_save(form, lambda data: services.actual_create(
            team=team, data=data, source=Source.FORM, created_by=request.user))
        if record is not None:
            messages.success(request, _("Actual cost #%(id)s saved.") % {"id": record.pk})
            return redirect(_saved_url(record))
        return _form_page(request, form)
    return _form_page(
        request, ActualForm(initial={"review": id_param(request, "review")}, team=team)
    )


@login_required
@require_http_methods(["GET", "POST"])
def actual_edit(request: HttpRequest, pk: int) -> HttpResponse:
    record = _record_for_user(request, pk)
    require_role(request, record.team, *WRITERS)
    if request.method == "POST":
        form = ActualForm(request.POST, team=record.team)
        status = 200
        if form.is_valid():
            try:
                services.actual_update(
                    record=record, data=form.data_for_service(),
                    version=form.cleaned_data.get("version"),
                )
            except services.ActualValidationError as exc:
                form.add_service_errors(exc)
            except StaleVersion:
                def factory(data):
                    stored = _record_for_user(request, pk)
                    if data is not None:
                        return ActualForm(data, team=stored.team)
                    return ActualForm(initial=initial_from_record(stored), team=stored.team)

                form, status = stale_form(form, factory), 409
            else:
                messages.success(request, _("Actual cost #%(id)s updated.") % {"id": pk})
                return redirect(_saved_url(record))
        return _form_page(request, form, record, status=status)
    form = ActualForm(initial=initial_from_record(record), team=record.team)
    return _form_page(request, form, record)


@login_required
@require_http_methods(["GET", "POST"])
def actual_delete(request: HttpRequest, pk: int) -> HttpResponse:
    record = _record_for_user(request, pk)
    require_role(request, record.team, *WRITERS)
    if request.method == "POST":
        services.actual_delete(record=record)
        messages.success(request, _("Actual cost #%(id)s deleted.") % {"id": pk})
        return redirect("actuals:list")
    return render(request, "actuals/delete.html", {"record": record})


@login_required
def over_plan_notice(request: HttpRequest, pk: int) -> HttpResponse:
    """The review page's notice (fetched by htmx after the page): the task's last run went over
    plan by more than the team's threshold. Empty when it did not."""
    review = get_scoped_or_404(Review.objects.select_related("team"), request.user, pk=pk)
    require_role(request, review.team)
    context = {"notice": selectors.last_run_notice(review), "currency": review.team.currency}
    return vary(render(request, "actuals/_notice.html", context))


@login_required
@require_POST
def threshold_set(request: HttpRequest) -> HttpResponse:
    team = require_current_team(request)
    require_role(request, team, Role.OWNER)
    form = ThresholdForm(request.POST)
    if form.is_valid():
        services.over_plan_threshold_set(team=team, value=form.cleaned_data["over_plan_pct"])
        messages.success(request, _("The over-plan notice now starts at %(v)s %%.") % {
            "v": f"{form.cleaned_data['over_plan_pct']:g}"})
    else:
        _errors_to_messages(request, form)
    return redirect("actuals:list")


def _upload(request: HttpRequest) -> tuple[UploadForm, str | None]:
    form = UploadForm(request.POST, request.FILES)
    return form, upload_content(form)


@login_required
@require_http_methods(["GET", "POST"])
@one_import_per_person
def actual_import(request: HttpRequest) -> HttpResponse:
    """Upload → preview with every row's errors → confirm: all rows saved together, or none."""
    team = require_current_team(request)
    require_role(request, team, *WRITERS)
    context = {"form": UploadForm(), "columns": services.COLUMNS, "result": None, "content": "",
               "import_url": reverse("actuals:import")}
    if request.method == "POST":
        form, content = _upload(request)
        context["form"] = form
        if content is not None:
            result = services.actual_import_csv(
                team=team, content=content, created_by=request.user,
                dry_run=request.POST.get("confirm") != "1",
            )
            if result.saved:
                messages.success(request, _("Imported %(n)s actual costs.") % {
                    "n": len(result.rows)})
                return redirect(reverse("actuals:list") + "?source=csv")
            context.update(result=result, content=content)
    return render(request, "actuals/import.html", context)


@login_required
def actual_import_template(request: HttpRequest) -> HttpResponse:
    team = require_current_team(request)
    require_role(request, team)
    example = {**services.TEMPLATE_EXAMPLE, "currency": team.currency}
    response = HttpResponse(
        template_csv(services.COLUMNS, example), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = 'attachment; filename="actual-costs-template.csv"'
    return response


def _assignments(request: HttpRequest) -> dict[int, int]:
    """{line: review id} chosen for unmatched lines (fields `assign-<line>`)."""
    out = {}
    for name, value in request.POST.items():
        if name.startswith("assign-") and value:
            try:
                line, review = int(name[7:][:10]), int(value[:20])
            except ValueError:
                continue
            if 1 <= review <= MAX_PK:
                out[line] = review
    return out


@login_required
@require_http_methods(["GET", "POST"])
@one_import_per_person
def bill_import(request: HttpRequest) -> HttpResponse:
    """A provider bill: upload → lines matched by their review:<id> tag, unmatched ones to
    assign by hand → confirm: one record per review and month, all saved together or none."""
    team = require_current_team(request)
    require_role(request, team, *WRITERS)
    settings = bills.team_bill_settings(team)
    context = {
        "form": UploadForm(), "result": None, "content": "", "assigned": {},
        "bill_settings": settings, "cost_label": BillCost(settings["basis"]).label,
        "settings_form": BillSettingsForm(initial={
            "bill_tag_key": settings["tag_key"], "bill_cost": settings["basis"]}),
        "is_owner": membership_for(request, team).role == Role.OWNER,
    }
    if request.method == "POST":
        form, content = _upload(request)
        context["form"] = form
        if content is not None:
            assigned = _assignments(request)
            result = bills.bill_import(
                team=team, content=content, assigned=assigned, created_by=request.user,
                dry_run=request.POST.get("confirm") != "1",
            )
            if result.saved:
                messages.success(request, _(
                    "Imported %(lines)s bill lines into %(n)s actual costs; %(skipped)s "
                    "unassigned lines left out."
                ) % {"lines": sum(len(g.lines) for g in result.groups), "n": len(result.groups),
                     "skipped": result.skipped})
                return redirect(reverse("actuals:list") + "?source=bill")
            context.update(
                result=result, content=content, assigned=assigned,
                reviews=list(selectors.approved_reviews(team=team)[:200]),
            )
    return render(request, "actuals/bill.html", context)


@login_required
@require_POST
def bill_settings_set(request: HttpRequest) -> HttpResponse:
    """The owner sets the tag key that names a review and the cost a bill counts."""
    team = require_current_team(request)
    require_role(request, team, Role.OWNER)
    form = BillSettingsForm(request.POST)
    if form.is_valid():
        services.bill_settings_set(team=team, tag_key=form.cleaned_data["bill_tag_key"],
                                   cost=form.cleaned_data["bill_cost"])
        messages.success(request, _("Bill settings saved."))
    else:
        _errors_to_messages(request, form)
    return redirect("actuals:bill")


def _errors_to_messages(request: HttpRequest, form) -> None:
    """A small form posted from a page that shows it again: its errors as the page's messages."""
    for errors in form.errors.values():
        for error in errors:
            messages.error(request, error)
