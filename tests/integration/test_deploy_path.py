"""The deploy path as a stranger follows it (README, Operating the bot in AWS: Deploy): every
parameter the guided deploy asks is explained, in the order it asks; each function's Handler is
a function in the package `sam build` makes; and a second `sam deploy` keeps the state: the
games (the table), the queued timers (the queue), the secrets and the webhook URL Telegram
holds are updated in place, never replaced."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

from deploy.package import ENTRY_POINTS, copy_package
from tests.integration.test_template import load_template

ROOT = Path(__file__).resolve().parents[2]

# Properties whose change makes CloudFormation replace the resource (AWS's resource reference,
# "Update requires: Replacement"): a new table without the games, a new queue without the
# timers, a new webhook secret Telegram does not know, a new function URL Telegram does not call.
REPLACING = {
    "AWS::DynamoDB::Table": {"TableName"},
    "AWS::SQS::Queue": {"QueueName", "FifoQueue"},
    "AWS::SecretsManager::Secret": {"Name"},
    "AWS::Serverless::Function": {"FunctionName"},
}
KEPT = ("GameTable", "TimerQueue", "TimerDeadLetterQueue", "BotTokenSecret", "WebhookSecret")


def deploy_section() -> str:
    text = (ROOT / "README.md").read_text()
    return text.split("### Deploy\n", 1)[1].split("\n### ", 1)[0]


def test_the_readme_explains_every_parameter_in_the_order_sam_asks() -> None:
    section = deploy_section()
    parameters = list(load_template()["Parameters"])
    explained = [p for p in re.findall(r"\*\*(\w+)\*\*", section) if p in parameters]
    assert explained == parameters  # `sam deploy --guided` asks them in the template's order


def test_each_handler_is_a_function_of_the_built_package(tmp_path: Path) -> None:
    copy_package(tmp_path)
    resources = load_template()["Resources"]
    handlers = {
        r["Properties"]["Handler"]
        for r in resources.values()
        if r["Type"] == "AWS::Serverless::Function"
    }
    assert {h.rsplit(".", 1)[0] for h in handlers} == set(ENTRY_POINTS)
    for handler in handlers:
        module, function = handler.rsplit(".", 1)
        source = tmp_path / (module.replace(".", "/") + ".py")
        assert source.is_file(), handler
        tree = ast.parse(source.read_text())
        (found,) = [
            node
            for node in tree.body
            if isinstance(node, ast.FunctionDef) and node.name == function
        ]
        assert [a.arg for a in found.args.args] == ["event", "context"], handler


def test_a_second_deploy_updates_the_state_in_place() -> None:
    template = load_template()
    resources: dict[str, Any] = template["Resources"]
    for name, resource in resources.items():
        replacing = REPLACING.get(resource["Type"], set()) & set(resource.get("Properties", {}))
        assert not replacing, (name, replacing)
    table = resources["GameTable"]
    # Even a deleted stack keeps the games (and a replacement would keep the old table).
    assert (table["DeletionPolicy"], table["UpdateReplacePolicy"]) == ("Retain", "Retain")
    assert all(resources[name]["Type"] in REPLACING for name in KEPT)
    # The webhook secret is generated once: an update that leaves the parameter empty keeps it.
    generated = resources["WebhookSecret"]["Properties"]["GenerateSecretString"]
    assert generated["Fn::If"][0] == "GenerateWebhookSecret"
    # The URL Telegram calls belongs to the alias every deploy moves, not to a version.
    assert template["Globals"]["Function"]["AutoPublishAlias"] == "live"


def test_the_readme_says_what_a_second_deploy_keeps() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "### Update" in readme
    text = readme.split("### Update", 1)[1].split("\n### ", 1)[0]
    for kept in ("table", "timer queue", "token", "samconfig.toml", "register_webhook"):
        assert kept in text, kept
