"""Checklist answers become a model of the reviews app (issue 31: a review's life in one app).

They were the model of an app of their own, `checklists`, whose migrations are gone with it. The
model keeps its table, `checklists_checklistanswer`, and every row in it:

- in Django's state the model is created here, under this app;
- in the database the table is created only where it is missing (a new database); on a database
  that the old `checklists` migrations built, it stays as it is;
- on PostgreSQL the guard that refuses writes to the answers of an approved review is (re)made,
  as `checklists` 0003 made it (both statements are idempotent);
- the content type `checklists.checklistanswer` becomes `reviews.checklistanswer`, so the
  permissions and admin log entries that point at it still do.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

TABLE = "checklists_checklistanswer"

GUARD = r"""
CREATE OR REPLACE FUNCTION checklists_signed_answer_guard() RETURNS trigger AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') AND EXISTS (
        SELECT 1 FROM reviews_candidate c JOIN reviews_review r ON r.id = c.review_id
        WHERE c.id = OLD.candidate_id AND r.state = 'approved'
    ) THEN
        RAISE EXCEPTION '% of an answer of an approved review refused', TG_OP;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') AND EXISTS (
        SELECT 1 FROM reviews_candidate c JOIN reviews_review r ON r.id = c.review_id
        WHERE c.id = NEW.candidate_id AND r.state = 'approved'
    ) THEN
        RAISE EXCEPTION '% of an answer into an approved review refused', TG_OP;
    END IF;
    IF TG_OP = 'DELETE' THEN
        RETURN OLD;
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;

DROP TRIGGER IF EXISTS checklists_answer_signed ON checklists_checklistanswer;
CREATE TRIGGER checklists_answer_signed
    BEFORE INSERT OR UPDATE OR DELETE ON checklists_checklistanswer
    FOR EACH ROW EXECUTE FUNCTION checklists_signed_answer_guard();
"""


def create_table_where_missing(apps, schema_editor):
    if TABLE not in schema_editor.connection.introspection.table_names():
        schema_editor.create_model(apps.get_model("reviews", "ChecklistAnswer"))
    if schema_editor.connection.vendor == "postgresql":
        # A plain cursor without parameters: the SQL holds % signs that are not placeholders.
        with schema_editor.connection.cursor() as cursor:
            cursor.execute(GUARD)


def content_type_follows(apps, schema_editor):
    content_types = apps.get_model("contenttypes", "ContentType")
    old = content_types.objects.filter(app_label="checklists", model="checklistanswer")
    if content_types.objects.filter(app_label="reviews", model="checklistanswer").exists():
        old.delete()
    else:
        old.update(app_label="reviews")


def content_type_back(apps, schema_editor):
    content_types = apps.get_model("contenttypes", "ContentType")
    content_types.objects.filter(app_label="reviews", model="checklistanswer").update(
        app_label="checklists"
    )


class Migration(migrations.Migration):
    dependencies = [
        ("benchmarks", "0001_initial"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("reviews", "0008_list_page_index"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="ChecklistAnswer",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("question", models.CharField(choices=[("q1", "Task scale"), ("q2", "Split and network"), ("q3", "Fault tolerance"), ("q4", "Billing basis"), ("q5", "Migration cost"), ("q6", "Exit path")], max_length=2, verbose_name="question")),
                        ("status", models.CharField(choices=[("answered", "Answered"), ("unanswered", "Unanswered")], default="unanswered", max_length=12, verbose_name="status")),
                        ("text", models.TextField(blank=True, verbose_name="answer")),
                        ("evidence_url", models.URLField(blank=True, max_length=500, verbose_name="evidence: link")),
                        ("updated_at", models.DateTimeField(auto_now=True)),
                        ("candidate", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="answers", to="reviews.candidate")),
                        ("evidence_benchmark", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to="benchmarks.benchmarkrecord", verbose_name="evidence: benchmark record")),
                        ("updated_by", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+", to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        "db_table": TABLE,
                        "ordering": ["candidate_id", "question"],
                        "constraints": [
                            models.UniqueConstraint(fields=("candidate", "question"), name="answer_unique_question")
                        ],
                    },
                ),
            ],
        ),
        migrations.RunPython(create_table_where_missing, migrations.RunPython.noop),
        migrations.RunPython(content_type_follows, content_type_back),
    ]
