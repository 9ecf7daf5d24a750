"""template.yaml: cfn-lint clean, the promised shape, and no dependency cycle once expanded.

cfn-lint validates SAM resources without expanding them, so it cannot see a cycle among the
resources SAM generates (roles, permissions, URLs, event source mappings); the expansion below
uses samtranslator, as ``sam deploy`` does.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from cfnlint.api import ManualArgs, lint_file
from cfnlint.decode import cfn_yaml

TEMPLATE = Path(__file__).resolve().parents[2] / "template.yaml"
SAM_FUNCTION = "AWS::Serverless::Function"


def load_template() -> dict[str, Any]:
    # cfn-lint's loader understands the short intrinsic tags (!Ref, !GetAtt, !Sub).
    decoded: dict[str, Any] = json.loads(json.dumps(cfn_yaml.load(str(TEMPLATE))))
    return decoded


def references(node: Any, names: set[str]) -> set[str]:
    """Logical ids that ``node`` points at through Ref, GetAtt or Sub."""
    found: set[str] = set()
    if isinstance(node, list):
        for item in node:
            found |= references(item, names)
    elif isinstance(node, dict):
        for key, value in node.items():
            if key == "Ref" and isinstance(value, str):
                found.add(value)
            elif key == "Fn::GetAtt":
                target = value[0] if isinstance(value, list) else str(value).split(".")[0]
                found.add(target)
            elif key == "Fn::Sub":
                text = value[0] if isinstance(value, list) else value
                found |= {m.split(".")[0] for m in re.findall(r"\$\{([^!}][^}]*)\}", text)}
            found |= references(value, names)
    return found & names


def dependency_graph(template: dict[str, Any]) -> dict[str, set[str]]:
    resources: dict[str, Any] = template["Resources"]
    names = set(resources)
    graph: dict[str, set[str]] = {}
    for name, resource in resources.items():
        depends = resource.get("DependsOn", [])
        depends = [depends] if isinstance(depends, str) else depends
        graph[name] = (references(resource, names) | set(depends)) - {name}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    visiting: list[str] = []
    done: set[str] = set()

    def visit(node: str) -> list[str] | None:
        if node in visiting:
            return [*visiting[visiting.index(node) :], node]
        if node in done:
            return None
        visiting.append(node)
        for target in sorted(graph.get(node, ())):
            if (cycle := visit(target)) is not None:
                return cycle
        visiting.pop()
        done.add(node)
        return None

    for node in sorted(graph):
        if (cycle := visit(node)) is not None:
            return cycle
    return None


class ManagedPolicies:
    """Stands in for samtranslator's IAM lookup of AWS managed policy names (offline)."""

    def load(self) -> dict[str, str]:
        return {}


def expand_sam(template: dict[str, Any]) -> dict[str, Any]:
    pytest.importorskip("samtranslator", reason="aws-sam-translator expands the SAM template")
    from samtranslator.translator.transform import transform

    for resource in template["Resources"].values():
        if resource["Type"] == SAM_FUNCTION:
            # What `sam package` does to a local CodeUri before the transform runs.
            resource["Properties"]["CodeUri"] = "s3://artifacts/code.zip"
    expanded: dict[str, Any] = transform(template, {}, ManagedPolicies())
    return expanded


def test_cfn_lint_reports_nothing() -> None:
    # Errors and warnings as `cfn-lint template.yaml` reports them, and informational findings.
    matches = lint_file(TEMPLATE, config=ManualArgs(include_checks=["I"]))
    assert [str(m) for m in matches] == []


def test_functions_run_python_3_12_or_newer_on_arm64() -> None:
    function = load_template()["Globals"]["Function"]
    major, minor = map(int, re.fullmatch(r"python(\d+)\.(\d+)", function["Runtime"]).groups())  # type: ignore[union-attr]
    assert (major, minor) >= (3, 12)
    assert function["Architectures"] == ["arm64"]
    assert function["MemorySize"] == 256
    assert set(function["Environment"]["Variables"]) == {
        "TELEGRAM_BOT_TOKEN",
        "TELEGRAM_WEBHOOK_SECRET",
        "TELEGRAM_API_BASE_URL",
        "GAME_TIME_SCALE",
        "GAME_TABLE_NAME",
        "TIMER_QUEUE_URL",
    }


def test_secrets_are_no_echo_parameters() -> None:
    template = load_template()
    parameters = template["Parameters"]
    assert parameters["TelegramBotToken"]["NoEcho"] is True
    assert parameters["TelegramWebhookSecret"]["NoEcho"] is True
    assert parameters["TelegramApiBaseUrl"]["Default"] == "https://api.telegram.org"
    assert parameters["GameTimeScale"]["Default"] == "1"
    variables = template["Globals"]["Function"]["Environment"]["Variables"]
    assert variables["TELEGRAM_BOT_TOKEN"] == {"Ref": "TelegramBotToken"}
    assert variables["TELEGRAM_WEBHOOK_SECRET"] == {"Ref": "TelegramWebhookSecret"}


def test_resources_have_the_promised_shape() -> None:
    template = load_template()
    resources = template["Resources"]
    webhook = resources["WebhookFunction"]["Properties"]
    assert webhook["Handler"] == "handlers.webhook.handler"
    assert webhook["FunctionUrlConfig"]["AuthType"] == "NONE"

    timer = resources["TimerFunction"]["Properties"]
    assert timer["Handler"] == "handlers.timer.handler"
    (event,) = timer["Events"].values()
    assert event["Type"] == "SQS"
    assert event["Properties"]["Queue"] == {"Fn::GetAtt": ["TimerQueue", "Arn"]}
    assert event["Properties"]["BatchSize"] == 10
    assert event["Properties"]["FunctionResponseTypes"] == ["ReportBatchItemFailures"]

    for function in (webhook, timer):
        policies = {name for policy in function["Policies"] for name in policy}
        assert policies == {"DynamoDBCrudPolicy", "SQSSendMessagePolicy"}

    queue = resources["TimerQueue"]["Properties"]
    timeout = template["Globals"]["Function"]["Timeout"]
    assert queue["VisibilityTimeout"] >= 6 * timeout
    assert queue["RedrivePolicy"] == {
        "deadLetterTargetArn": {"Fn::GetAtt": ["TimerDeadLetterQueue", "Arn"]},
        "maxReceiveCount": 5,
    }

    table = resources["GameTable"]["Properties"]
    assert table["BillingMode"] == "PAY_PER_REQUEST"
    assert table["KeySchema"] == [{"AttributeName": "pk", "KeyType": "HASH"}]
    assert table["AttributeDefinitions"] == [{"AttributeName": "pk", "AttributeType": "S"}]
    assert table["TimeToLiveSpecification"] == {"AttributeName": "ttl", "Enabled": True}


def test_outputs_name_the_webhook_url_table_and_queue() -> None:
    outputs = load_template()["Outputs"]
    assert outputs["WebhookUrl"]["Value"] == {"Fn::GetAtt": ["WebhookFunctionUrl", "FunctionUrl"]}
    assert outputs["GameTableName"]["Value"] == {"Ref": "GameTable"}
    assert outputs["TimerQueueUrl"]["Value"] == {"Ref": "TimerQueue"}


def test_cycle_check_finds_cycles() -> None:
    looped = {
        "Resources": {
            "Fn": {"Type": "T", "Properties": {"Env": {"Fn::Sub": "${Url.FunctionUrl}"}}},
            "Url": {"Type": "T", "Properties": {"Target": {"Fn::GetAtt": ["Fn", "Arn"]}}},
            "Log": {"Type": "T", "DependsOn": "Fn", "Properties": {"X": "${!Literal}"}},
        }
    }
    assert find_cycle(dependency_graph(looped)) == ["Fn", "Url", "Fn"]
    del looped["Resources"]["Fn"]["Properties"]
    assert find_cycle(dependency_graph(looped)) is None


def test_sam_template_has_no_dependency_cycle() -> None:
    assert find_cycle(dependency_graph(load_template())) is None


def test_expanded_template_has_no_dependency_cycle(aws_env: None) -> None:
    expanded = expand_sam(load_template())
    resources = expanded["Resources"]

    assert not [name for name, r in resources.items() if r["Type"].startswith("AWS::Serverless")]
    assert find_cycle(dependency_graph(expanded)) is None

    functions = [
        r["Properties"] for r in resources.values() if r["Type"] == "AWS::Lambda::Function"
    ]
    assert len(functions) == 2
    assert all(f["Runtime"] == "python3.12" and f["Architectures"] == ["arm64"] for f in functions)
    url = resources["WebhookFunctionUrl"]
    assert url["Type"] == "AWS::Lambda::Url" and url["Properties"]["AuthType"] == "NONE"
    mappings = [r for r in resources.values() if r["Type"] == "AWS::Lambda::EventSourceMapping"]
    assert [m["Properties"]["FunctionResponseTypes"] for m in mappings] == [
        ["ReportBatchItemFailures"]
    ]
