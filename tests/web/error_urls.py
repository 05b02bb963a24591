"""A URLconf for the error page tests: the site's URLs plus one view that fails."""

from django.urls import path

from config.urls import urlpatterns as site_urlpatterns


def fail(request):
    raise RuntimeError("a deliberate failure for the 500 page test")


urlpatterns = [*site_urlpatterns, path("test-failure/", fail)]
