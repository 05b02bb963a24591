from django.contrib import admin
from django.http import HttpResponse
from django.urls import include, path, re_path
from django.views.decorators.http import require_GET
from django.views.generic import RedirectView

from apps.teams import views as team_views


@require_GET
def ping(request):
    """A fixed string through the whole stack: the ceiling that benchmarks compare pages with."""
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [
    path("", team_views.home, name="home"),
    path("ping", ping, name="ping"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/", include("apps.accounts.urls")),
    # django-allauth: sign-up (by invitation), password reset and change, email addresses,
    # sessions, single sign-on. Its login/logout paths are the ones above (same URLs). Included
    # part by part, without allauth's unnamed legacy redirects (/accounts/social/...).
    path("accounts/", include("allauth.account.urls")),
    path("accounts/3rdparty/", include("allauth.socialaccount.urls")),
    path("accounts/", include("allauth.socialaccount.providers.openid_connect.urls")),
    path("accounts/sessions/", include("allauth.usersessions.urls")),
    path("", include("apps.teams.urls")),
    path("catalog/", include("apps.catalog.urls")),
    path("profiles/", include("apps.profiles.urls")),
    path("benchmarks/", include("apps.benchmarks.urls")),
    path("reviews/", include("apps.reviews.urls")),
    path("checklists/", include("apps.reviews.checklists.urls")),
    path("actuals/", include("apps.actuals.urls")),
    path("scoring/", include("apps.scoring.urls")),
    path("api/v1/", include("apps.api.urls")),
    path("method/", include("apps.method.urls")),
    path("notifications/", include("apps.notifications.urls")),
    # Models that moved into the reviews app (issue 31) keep their old admin addresses.
    re_path(
        r"^admin/(?:checklists|scoring)/(?P<model>checklistanswer|evaluationsnapshot|snapshotjob)/"
        r"(?P<rest>.*)$",
        RedirectView.as_view(url="/admin/reviews/%(model)s/%(rest)s", query_string=True),
        name="admin_moved_model",
    ),
    path("admin/", admin.site.urls),
]
