"""Where a user finds the actual costs: next to the quarterly cost review."""

from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


class NavigationTests:
    @pytest.mark.parametrize("page", ["scoring:history", "scoring:quarterly"])
    def test_the_history_and_quarterly_pages_link_to_the_actual_costs(self, client, member, page):
        client.force_login(member)
        html = client.get(reverse(page)).content.decode()
        assert f'href="{reverse("actuals:list")}">Actual costs</a>' in html

    def test_the_link_is_translated(self, client, member):
        client.force_login(member)
        html = client.get(reverse("scoring:history"), HTTP_ACCEPT_LANGUAGE="zh-hans").content
        assert f'href="{reverse("actuals:list")}">实际成本</a>' in html.decode()
