"""The exports of a snapshot (apps.scoring.exports): the CSV with a BOM, its table with stable
English keys and the UI's words beside the codes, its findings and sign-offs parts; the XLSX with
the UI's words and its Findings and Sign-offs sheets; in English and in Chinese."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse
from django.utils import translation

from apps.reviews.checklists.models import ChecklistAnswer
from apps.reviews.models import SignOff
from apps.reviews.snapshots.services import snapshot_compute
from apps.reviews.snapshots.tables import COLUMN_KEYS
from apps.scoring.exports import FINDING_KEYS, LABEL_COLUMNS, SIGNOFF_KEYS
from apps.web.labels import PLACEMENTS

pytestmark = pytest.mark.django_db
ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}
BOM = b"\xef\xbb\xbf"


@pytest.fixture
def signoffs(world, snapshot, reviewer, owner):
    """Two decisions on the snapshot, the second a comment a spreadsheet would run."""
    first = SignOff.objects.create(
        review=world.review,
        reviewer=reviewer,
        decision="request_changes",
        snapshot=snapshot,
        comment="Reserve the channel to far first.\nThen submit again.",
    )
    second = SignOff.objects.create(
        review=world.review,
        reviewer=owner,
        decision="approve",
        snapshot=snapshot,
        round=2,
        comment='=HYPERLINK("http://x")',
    )
    return [first, second]


def _csv(client, snapshot, part=None, **extra) -> tuple[bytes, list[list[str]]]:
    url = reverse("scoring:snapshot_csv", args=[snapshot.pk])
    response = client.get(url, {"part": part} if part else {}, **extra)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    return response.content, list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))


def _xlsx(client, snapshot, **extra):
    from openpyxl import load_workbook

    response = client.get(reverse("scoring:snapshot_xlsx", args=[snapshot.pk]), **extra)
    assert response.status_code == 200
    return load_workbook(io.BytesIO(response.content))


class CsvTableTests:
    def test_it_starts_with_a_bom_and_keeps_the_stable_keys_first(self, client, owner, snapshot):
        client.force_login(owner)
        body, rows = _csv(client, snapshot)
        assert body.startswith(BOM) and not body.startswith(BOM * 2)
        label_keys = ["placement_label", "tier_label", "verdict_label", "reason_label"]
        assert rows[0] == [*COLUMN_KEYS, *label_keys]
        assert [key for key, _column, _words in LABEL_COLUMNS] == label_keys

    def test_the_codes_stay_codes_and_the_words_follow_the_language(self, client, owner, snapshot):
        client.force_login(owner)
        _body, english = _csv(client, snapshot)
        _body, chinese = _csv(client, snapshot, **ZH)
        for rows in (english, chinese):
            assert rows[0][0] == "row_type"  # the header keys never translate
        chosen_en = next(
            dict(zip(english[0], r, strict=True))
            for r in english[1:]
            if r[english[0].index("chosen")] == "true"
        )
        chosen_zh = next(
            dict(zip(chinese[0], r, strict=True))
            for r in chinese[1:]
            if r[chinese[0].index("chosen")] == "true"
        )
        # Scripts read the same codes in both languages.
        assert chosen_en["placement"] == chosen_zh["placement"] == "move_data"
        assert chosen_en["verdict"] == chosen_zh["verdict"] == "chosen"
        assert chosen_en["tier"] == chosen_zh["tier"] == "cross_hub"
        # People read the UI's words: the comparison table's labels.
        assert chosen_en["placement_label"] == "Move the data"
        assert chosen_en["verdict_label"] == "chosen"
        assert chosen_en["tier_label"] == "Cross hub"
        with translation.override("zh-hans"):
            assert chosen_zh["placement_label"] == str(PLACEMENTS["move_data"])
        assert chosen_zh["placement_label"] != "Move the data"
        assert chosen_zh["verdict_label"] == "已选"
        assert chosen_zh["tier_label"] == "跨枢纽"
        # Chinese text survives the round trip through UTF-8 with its BOM.
        assert "已选" in _csv(client, snapshot, **ZH)[0].decode("utf-8-sig")

    def test_an_unknown_part_is_refused_naming_the_field(self, client, owner, snapshot):
        client.force_login(owner)
        url = reverse("scoring:snapshot_csv", args=[snapshot.pk])
        response = client.get(url, {"part": "everything"})
        assert response.status_code == 400
        assert response.content.decode() == "part: must be one of table, findings, signoffs."


class CsvFindingsTests:
    def test_the_findings_part_lists_blocks_first_in_the_users_language(
        self, client, owner, world, snapshot
    ):
        client.force_login(owner)
        body, rows = _csv(client, snapshot, part="findings")
        assert body.startswith(BOM)
        assert rows[0] == list(FINDING_KEYS)
        findings = snapshot.output["findings"]
        assert len(rows) == 1 + len(findings)
        by_rule = {r[2]: dict(zip(rows[0], r, strict=True)) for r in rows[1:]}
        h2 = next(f for f in findings if f["rule"] == "H2")
        assert by_rule["H2"]["severity"] == "block"
        assert by_rule["H2"]["severity_label"] == "block"
        assert by_rule["H2"]["message"] == h2["message"]
        severities = [r[0] for r in rows[1:]]
        assert severities == sorted(severities, key=["block", "warn", "info"].index)
        assert by_rule["H2"]["offer"] == by_rule["H2"]["offer_label"] == ""  # about the plan

        _body, chinese = _csv(client, snapshot, part="findings", **ZH)
        assert chinese[0] == list(FINDING_KEYS)
        zh = {r[2]: dict(zip(chinese[0], r, strict=True)) for r in chinese[1:]}
        assert zh["H2"]["message"] == h2["message_zh"] != h2["message"]
        assert zh["H2"]["severity"] == "block" and zh["H2"]["severity_label"] == "阻断"

    def test_a_finding_about_one_offer_names_it(self, client, owner, world):
        # Q6 left open on the far offer: rule C speaks about that candidate.
        ChecklistAnswer.objects.filter(candidate__offer=world.remote, question="q6").delete()
        snapshot = snapshot_compute(review_id=world.review.pk)
        about = [f for f in snapshot.output["findings"] if f.get("offer")]
        assert about and {f["offer"] for f in about} == {str(world.remote.pk)}
        client.force_login(owner)
        _body, rows = _csv(client, snapshot, part="findings")
        named = [dict(zip(rows[0], r, strict=True)) for r in rows[1:] if r[3]]
        assert len(named) == len(about)
        assert {r["offer_label"] for r in named} == {"Acme Cloud · Far L40S"}


class CsvSignoffsTests:
    def test_the_signoffs_part_has_each_decision_and_comment(
        self, client, owner, snapshot, signoffs
    ):
        client.force_login(owner)
        body, rows = _csv(client, snapshot, part="signoffs")
        assert body.startswith(BOM)
        assert rows[0] == list(SIGNOFF_KEYS)
        first, second = (dict(zip(rows[0], r, strict=True)) for r in rows[1:])
        assert (first["round"], first["reviewer"], first["decision"]) == (
            "1",
            "reviewer",
            "request_changes",
        )
        assert first["decision_label"] == "Request changes"
        assert first["comment"] == "Reserve the channel to far first.\nThen submit again."
        assert first["snapshot"] == str(snapshot.pk)
        assert first["created_at"] == signoffs[0].created_at.isoformat()
        # A formula in a comment is defused.
        assert second["comment"] == '\'=HYPERLINK("http://x")'

        _body, chinese = _csv(client, snapshot, part="signoffs", **ZH)
        assert [r[3] for r in chinese[1:]] == ["要求修改", "批准"]
        assert [r[2] for r in chinese[1:]] == ["request_changes", "approve"]

    def test_without_a_decision_only_the_header_is_there(self, client, owner, snapshot):
        client.force_login(owner)
        _body, rows = _csv(client, snapshot, part="signoffs")
        assert rows == [list(SIGNOFF_KEYS)]


class XlsxTests:
    def test_it_has_findings_and_signoffs_sheets(self, client, owner, snapshot, signoffs):
        client.force_login(owner)
        book = _xlsx(client, snapshot)
        assert book.sheetnames == ["Comparison", "Snapshot", "Findings", "Sign-offs"]
        findings = book["Findings"]
        assert [c.value for c in findings[1]] == ["Severity", "Rule", "Offer", "Message"]
        h2 = next(f for f in snapshot.output["findings"] if f["rule"] == "H2")
        assert [findings["A2"].value, findings["B2"].value, findings["D2"].value] == [
            "block",
            "H2",
            h2["message"],
        ]
        assert findings.max_row == 1 + len(snapshot.output["findings"])
        sheet = book["Sign-offs"]
        assert [c.value for c in sheet[1]] == [
            "Round",
            "Reviewer",
            "Decision",
            "Comment",
            "Snapshot",
            "When",
        ]
        assert [c.value for c in sheet[2]][:5] == [
            1,
            "reviewer",
            "Request changes",
            "Reserve the channel to far first.\nThen submit again.",
            snapshot.pk,
        ]
        assert sheet["D3"].value == '\'=HYPERLINK("http://x")'  # defused

    def test_the_table_shows_the_uis_words_in_chinese(self, client, owner, snapshot, signoffs):
        client.force_login(owner)
        book = _xlsx(client, snapshot, **ZH)
        assert book.sheetnames == ["对比表", "快照", "发现", "签字记录"]
        sheet = book["对比表"]
        chosen = next(
            [c.value for c in row]
            for row in sheet.iter_rows(min_row=2)
            if row[COLUMN_KEYS.index("chosen")].value == "是"
        )
        values = dict(zip(COLUMN_KEYS, chosen, strict=True))
        with translation.override("zh-hans"):
            placement = str(PLACEMENTS["move_data"])
        assert values["placement"] == placement != "Move the data"
        assert values["tier"] == "跨枢纽"
        assert values["verdict"] == "已选"
        assert values["row_type"] == "放置方案"
        assert book["发现"]["A2"].value == "阻断"
        assert book["签字记录"]["C3"].value == "批准"
