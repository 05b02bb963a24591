from django.apps import AppConfig


class MethodConfig(AppConfig):
    """The method guide: every rule, gate, exclusion, indicator and rollout tier explained, with
    the team's thresholds filled in and the seed passages quoted.

    The top of the house: it may read every app; no app imports it (templates link to it by URL
    name and through its template filter only).
    """

    name = "apps.method"
    label = "method"
