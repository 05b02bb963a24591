"""Evaluation snapshots and their jobs become models of the reviews app (issue 31: a review's life
in one app), so a sign-off's snapshot is a key within the app and no migration of reviews depends
on scoring (the reviews <-> scoring cycle is gone).

Both models keep their tables, `scoring_evaluationsnapshot` and `scoring_snapshotjob`, and every
row in them; `reviews_signoff.snapshot_id` keeps its column:

- in Django's state the models are created here, under this app, and `SignOff.snapshot` is added
  (scoring 0001, 0002 and 0004 no longer create them; reviews 0002 no longer adds the key);
- in the database a table, or a column, is created only where it is missing (a new database); on
  a database that the old migrations built, everything stays as it is;
- the content types `scoring.evaluationsnapshot` and `scoring.snapshotjob` become the reviews
  app's, so the permissions and admin log entries that point at them still do.
"""

import django.db.models.deletion
from django.db import migrations, models

MODELS = {"EvaluationSnapshot": "scoring_evaluationsnapshot", "SnapshotJob": "scoring_snapshotjob"}


def create_where_missing(apps, schema_editor):
    introspection = schema_editor.connection.introspection
    tables = introspection.table_names()
    for name, table in MODELS.items():
        if table not in tables:
            schema_editor.create_model(apps.get_model("reviews", name))
    signoff = apps.get_model("reviews", "SignOff")
    with schema_editor.connection.cursor() as cursor:
        columns = {
            c.name for c in introspection.get_table_description(cursor, signoff._meta.db_table)
        }
    field = signoff._meta.get_field("snapshot")
    if field.column not in columns:
        schema_editor.add_field(signoff, field)


def content_types_follow(apps, schema_editor):
    content_types = apps.get_model("contenttypes", "ContentType")
    for name in MODELS:
        model = name.lower()
        old = content_types.objects.filter(app_label="scoring", model=model)
        if content_types.objects.filter(app_label="reviews", model=model).exists():
            old.delete()
        else:
            old.update(app_label="reviews")


def content_types_back(apps, schema_editor):
    content_types = apps.get_model("contenttypes", "ContentType")
    content_types.objects.filter(
        app_label="reviews", model__in=[name.lower() for name in MODELS]
    ).update(app_label="scoring")


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("profiles", "0001_initial"),
        ("reviews", "0009_checklist_answers"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="EvaluationSnapshot",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("fingerprint", models.CharField(max_length=64)),
                        ("input_hash", models.CharField(max_length=64)),
                        ("engine_version", models.CharField(max_length=20)),
                        ("input", models.JSONField()),
                        ("output", models.JSONField()),
                        ("table_rows", models.JSONField(default=list)),
                        ("chart_data", models.JSONField(default=dict)),
                        ("review_state", models.CharField(blank=True, max_length=20)),
                        ("platform", models.CharField(blank=True, max_length=24)),
                        ("chosen_kind", models.CharField(blank=True, max_length=16)),
                        ("chosen_site", models.CharField(blank=True, max_length=40)),
                        ("chosen_offer", models.CharField(blank=True, max_length=40)),
                        ("chosen_total_cost", models.FloatField(blank=True, null=True)),
                        ("chosen_total_hours", models.FloatField(blank=True, null=True)),
                        ("block_count", models.PositiveIntegerField(default=0)),
                        ("warn_count", models.PositiveIntegerField(default=0)),
                        ("inputs_generation", models.PositiveIntegerField(default=1)),
                        ("settings_generation", models.PositiveIntegerField(default=1)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("review", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="snapshots", to="reviews.review")),
                        ("task", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="snapshots", to="profiles.taskprofile")),
                        ("team", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="snapshots", to="accounts.team")),
                    ],
                    options={
                        "db_table": "scoring_evaluationsnapshot",
                        "ordering": ["-created_at", "-id"],
                        "indexes": [
                            models.Index(fields=["team", "-created_at", "-id"], name="snapshot_team_page"),
                            models.Index(fields=["review", "-created_at"], name="snapshot_review_recent"),
                            models.Index(fields=["task", "-created_at"], name="snapshot_task_recent"),
                        ],
                        "constraints": [
                            models.UniqueConstraint(fields=("review", "fingerprint"), name="snapshot_unique_fingerprint"),
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="SnapshotJob",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("fingerprint", models.CharField(blank=True, max_length=64)),
                        ("status", models.CharField(choices=[("pending", "Pending (broker unavailable)"), ("queued", "Queued"), ("running", "Running"), ("done", "Done"), ("failed", "Failed")], default="queued", max_length=12)),
                        ("attempts", models.PositiveIntegerField(default=0)),
                        ("error", models.TextField(blank=True)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("updated_at", models.DateTimeField(auto_now=True)),
                        ("review", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="snapshot_jobs", to="reviews.review")),
                        ("snapshot", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+", to="reviews.evaluationsnapshot")),
                        ("team", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="snapshot_jobs", to="accounts.team")),
                    ],
                    options={
                        "db_table": "scoring_snapshotjob",
                        "ordering": ["-created_at", "-id"],
                        "indexes": [models.Index(fields=["status", "updated_at"], name="job_status_time")],
                    },
                ),
                migrations.AddField(
                    model_name="signoff",
                    name="snapshot",
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="signoffs", to="reviews.evaluationsnapshot"),
                ),
            ],
        ),
        migrations.RunPython(create_where_missing, migrations.RunPython.noop),
        migrations.RunPython(content_types_follow, content_types_back),
    ]
