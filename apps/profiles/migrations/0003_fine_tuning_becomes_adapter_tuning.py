"""SPEC 6.1: v1's workload "fine_tuning" meant adapter tuning (LoRA/QLoRA, sized as weights +
0.16 bytes a parameter); from engine 2.0 "fine_tuning" is full fine-tuning, sized like training.
Every stored v1 profile with "fine_tuning" becomes "adapter_tuning", so its figures keep their
meaning. Signed reviews keep their frozen input as it was signed.

Backwards: "adapter_tuning" becomes "fine_tuning" again. A profile saved as full fine-tuning after
this migration has no v1 spelling (v1 would read it as adapter tuning), so the reverse is refused
while one exists rather than changing its meaning silently.
"""

from django.db import migrations

V1_FINE_TUNING = "fine_tuning"
ADAPTER_TUNING = "adapter_tuning"


def forwards(apps, schema_editor):
    TaskProfile = apps.get_model("profiles", "TaskProfile")
    TaskProfile.objects.filter(workload=V1_FINE_TUNING).update(workload=ADAPTER_TUNING)


def backwards(apps, schema_editor):
    TaskProfile = apps.get_model("profiles", "TaskProfile")
    full = list(
        TaskProfile.objects.filter(workload=V1_FINE_TUNING).values_list("pk", flat=True)[:20]
    )
    if full:
        raise RuntimeError(
            "Cannot reverse: task profiles saved as full fine-tuning (ids "
            f"{', '.join(map(str, full))}) would read as adapter tuning in v1. "
            "Change or delete them first."
        )
    TaskProfile.objects.filter(workload=ADAPTER_TUNING).update(workload=V1_FINE_TUNING)


class Migration(migrations.Migration):
    dependencies = [
        ("profiles", "0002_allowed_sites_adapter_tuning"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
