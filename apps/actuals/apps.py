from django.apps import AppConfig


class ActualsConfig(AppConfig):
    name = "apps.actuals"
    verbose_name = "Actual costs"
