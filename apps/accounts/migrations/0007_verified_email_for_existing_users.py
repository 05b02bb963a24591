"""Accounts made before django-allauth were created by owners and admins who knew the person: their
email address counts as verified, so mandatory verification does not lock them out at the next
sign-in. Accounts made later verify their address (an invitation link does it)."""

from django.conf import settings
from django.db import migrations


def forwards(apps, schema_editor):
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    EmailAddress = apps.get_model("account", "EmailAddress")
    known = {email.lower() for email in EmailAddress.objects.values_list("email", flat=True)}
    rows = []
    for user_id, email in User.objects.exclude(email="").values_list("pk", "email"):
        if email.lower() in known:
            continue  # two accounts with one address: the first one keeps it
        known.add(email.lower())
        rows.append(EmailAddress(user_id=user_id, email=email, verified=True, primary=True))
    EmailAddress.objects.bulk_create(rows)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0006_invitations_and_sso_only"),
        ("account", "0009_emailaddress_unique_primary_email"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
