from django.apps import AppConfig


class ChecklistsConfig(AppConfig):
    name = "apps.checklists"
    label = "checklists"
