from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "apps.accounts"
    label = "accounts"

    def ready(self) -> None:
        from . import signals
        from .fields import install_text_validator

        signals.connect_generation_bumps()
        install_text_validator()  # control characters refused in every text form field
