"""The operator's files: the Grafana dashboard and the Prometheus alert rules parse, and every
metric their expressions name is one the bot exports."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from prometheus_client.parser import text_string_to_metric_families

from tests.bot.test_metrics import get, metrics_bot

DOCS = Path(__file__).resolve().parents[2] / "docs" / "operators"
#: a metric name in a PromQL expression (functions and keywords are followed by "(" or are
#: not of these families)
METRIC = re.compile(r"\b((?:tabletop|process)_[a-z_]+)\b")
SUFFIXES = {"counter": ("_total", "_created"), "histogram": ("_bucket", "_count", "_sum", "_created"),
            "gauge": ("",), "unknown": ("",)}


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> set[str]:
    """Every sample name the bot's /metrics can show (a labelled counter not yet counted shows
    its family only: its names follow from its type)."""
    import asyncio

    async def scrape() -> str:
        bot, _ = await metrics_bot(tmp_path_factory.mktemp("exported"))
        try:
            return (await get(bot, "/metrics"))[1]
        finally:
            await bot.close()

    text = asyncio.run(scrape())
    names = set()
    for family in text_string_to_metric_families(text):
        names |= {family.name + suffix for suffix in SUFFIXES.get(family.type, ("",))}
        names |= {sample.name for sample in family.samples}
    return names


def alert_rules() -> list[dict]:
    rules = yaml.safe_load((DOCS / "alerts.yml").read_text(encoding="utf-8"))
    return [rule for group in rules["groups"] for rule in group["rules"]]


def dashboard_exprs() -> list[str]:
    dashboard = json.loads((DOCS / "grafana-dashboard.json").read_text(encoding="utf-8"))
    return [target["expr"] for panel in dashboard["panels"]
            for target in panel.get("targets", ())]


def test_the_alert_rules_parse_and_cover_the_three_that_matter():
    rules = alert_rules()
    assert all({"alert", "expr", "labels", "annotations"} <= set(rule) for rule in rules)
    by_name = {rule["alert"]: rule["expr"] for rule in rules}
    assert len(by_name) == len(rules)
    assert 'le="3.0"' in by_name["TabletopAnswersOver3s"]
    assert 'scope="global"' in by_name["TabletopGlobal429"]
    assert "> 60" in by_name["TabletopBoardsBehind"]


def test_the_dashboard_is_an_importable_grafana_dashboard():
    dashboard = json.loads((DOCS / "grafana-dashboard.json").read_text(encoding="utf-8"))
    assert dashboard["title"] and dashboard["uid"] and dashboard["schemaVersion"] >= 30
    variables = {v["name"]: v for v in dashboard["templating"]["list"]}
    assert variables["datasource"]["type"] == "datasource"
    ids = [panel["id"] for panel in dashboard["panels"]]
    assert len(ids) == len(set(ids))
    for panel in dashboard["panels"]:
        grid = panel["gridPos"]
        assert grid["x"] + grid["w"] <= 24
    assert len(dashboard_exprs()) >= 20


@pytest.mark.parametrize("where, exprs", [
    ("alerts.yml", lambda: [rule["expr"] for rule in alert_rules()]),
    ("grafana-dashboard.json", dashboard_exprs),
])
def test_every_metric_named_is_one_the_bot_exports(exported, where, exprs):
    named = {name for expr in exprs() for name in METRIC.findall(expr)}
    assert named, where
    assert named <= exported, (where, named - exported)
    # and the le of a bucket is written as the bot writes it
    for expr in exprs():
        for le in re.findall(r'le="([^"]+)"', expr):
            assert le == "+Inf" or "." in le, (where, expr)
