from django.apps import AppConfig


class TeamsConfig(AppConfig):
    """The team's own pages (dashboard, settings, thresholds, calibration) and the demo data.

    The top of the house: it may read every app; no app imports it (docs/architecture.md).
    """

    name = "apps.teams"
    label = "teams"

    def ready(self) -> None:
        from .nav_counts import register

        register()  # the navigation's counts' own key (nav_counts.py)
