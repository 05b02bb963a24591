"""The MLflow page of the benchmarks (issue 40): the team's mapping, saved once, then a preview of
what each run would become, then the import. Members and owners (those who record evidence);
the tracking URI typed here obeys the webhook address rule (apps/web/outbound.py)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from apps.accounts.access import require_current_team, require_role
from apps.accounts.models import Role
from apps.profiles.models import TaskProfile
from apps.web import outbound
from apps.web.ingest import one_import_per_person

from . import mlflow_import
from .models import MlflowMapping

WRITERS = (Role.MEMBER,)
ACTIONS = ("save", "preview", "import")


class MlflowMappingForm(forms.ModelForm):
    tracking_uri = forms.URLField(
        label=MlflowMapping._meta.get_field("tracking_uri").verbose_name,
        max_length=500,
        assume_scheme="https",
    )

    class Meta:
        model = MlflowMapping
        fields = [
            "tracking_uri", "experiment", "task", "offer_tag", "nodes_key", "gpus_per_node_key",
            "compute_hours_metric", "peak_gpu_mem_metric", "failure_reruns_metric",
        ]  # fmt: skip

    def __init__(self, *args, team, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["task"].queryset = TaskProfile.objects.filter(team=team)

    def clean(self):
        unknown = sorted(set(self.data) - set(self.fields) - {"csrfmiddlewaretoken", "action"})
        if unknown:
            raise forms.ValidationError(
                _("Unknown fields: %(fields)s") % {"fields": ", ".join(unknown)}
            )
        return super().clean()

    def clean_tracking_uri(self):
        uri = self.cleaned_data["tracking_uri"]
        try:
            outbound.check_url(uri)
        except outbound.OutboundRefused as exc:
            raise forms.ValidationError(exc.message) from exc
        return uri


@login_required
@require_http_methods(["GET", "POST"])
@one_import_per_person
def mlflow_page(request: HttpRequest) -> HttpResponse:
    team = require_current_team(request)
    require_role(request, team, *WRITERS)
    mapping = MlflowMapping.objects.filter(team=team).first()
    action = request.POST.get("action", "save")
    bound = request.method == "POST"
    form = MlflowMappingForm(request.POST if bound else None, instance=mapping, team=team)
    context = {"form": form, "rows": None, "counts": None, "action": action}
    status = 200
    if bound and action not in ACTIONS:
        form.add_error(None, _("Unknown action."))
    elif bound and form.is_valid():
        mapping = form.save(commit=False)
        mapping.team = team
        if action == "save":
            mapping.save()
            messages.success(request, _("MLflow mapping saved."))
            return redirect(reverse("benchmarks:mlflow"))
        try:
            runs = mlflow_import.fetch_runs(mapping.tracking_uri, mapping.experiment)
        except mlflow_import.MlflowError as exc:
            form.add_error("tracking_uri", exc.message)
        else:
            mapping.save()  # a mapping that was previewed or imported with is kept
            if action == "import":
                rows = mlflow_import.import_runs(team, mapping, runs, created_by=request.user)
            else:
                rows = mlflow_import.preview(team, mapping, runs)
            context.update(rows=rows, counts=mlflow_import.counts(rows))
    if bound and form.errors:
        status = 422
    return render(request, "benchmarks/mlflow.html", context, status=status)
