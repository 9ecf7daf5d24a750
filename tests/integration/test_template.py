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
    assert function["AutoPublishAlias"] == "live"


def test_secrets_never_reach_the_function_configuration() -> None:
    template = load_template()
    parameters = template["Parameters"]
    assert parameters["TelegramBotToken"]["NoEcho"] is True
    assert parameters["TelegramWebhookSecret"]["NoEcho"] is True
    variables = dict(template["Globals"]["Function"]["Environment"]["Variables"])
    for name in ("WebhookFunction", "TimerFunction"):
        own = template["Resources"][name]["Properties"].get("Environment", {})
        variables.update(own.get("Variables", {}))
    assert "TELEGRAM_BOT_TOKEN" not in variables and "TELEGRAM_WEBHOOK_SECRET" not in variables
    assert variables["BOT_TOKEN_SECRET_ARN"] == {"Ref": "BotTokenSecret"}
    assert variables["WEBHOOK_SECRET_ARN"] == {"Ref": "WebhookSecret"}
    assert {"Ref": "TelegramBotToken"} not in variables.values()
    generated = template["Resources"]["WebhookSecret"]["Properties"]["GenerateSecretString"]
    assert generated["Fn::If"][0] == "GenerateWebhookSecret"
    assert generated["Fn::If"][1]["PasswordLength"] >= 32


def allowed(pattern: str, value: str) -> bool:
    # CloudFormation matches the whole value (Java regex; these patterns mean the same in Python).
    return re.fullmatch(pattern, value) is not None


def test_parameter_patterns_reject_what_would_break_or_leak() -> None:
    parameters = load_template()["Parameters"]
    scale = parameters["GameTimeScale"]["AllowedPattern"]
    assert [v for v in ("1", "0.1", "2.5", ".5", "10", "0.05") if not allowed(scale, v)] == []
    assert [v for v in ("0", "0.0", "00", ".0", "-1", "", "1e3", "abc") if allowed(scale, v)] == []

    url = parameters["TelegramApiBaseUrl"]["AllowedPattern"]
    assert allowed(url, "https://api.telegram.org") and allowed(url, "https://proxy.example/tg")
    assert not allowed(url, "http://api.telegram.org")
    assert not allowed(url, "ftp://api.telegram.org")

    secret = parameters["TelegramWebhookSecret"]
    assert secret["Default"] == "" and allowed(secret["AllowedPattern"], "")
    assert not allowed(secret["AllowedPattern"], "x" * 31)
    assert allowed(secret["AllowedPattern"], "A1_-" * 8)
    assert not allowed(secret["AllowedPattern"], "a" * 31 + "!")

    token = parameters["TelegramBotToken"]["AllowedPattern"]
    assert allowed(token, "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw_")
    assert not allowed(token, "") and not allowed(token, "x")


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
        assert function["CodeUri"] != "."  # SAM would copy the whole checkout, .venv included
        assert "Policies" not in function  # our own least-privilege roles instead
        assert function["LoggingConfig"]["LogFormat"] == "JSON"

    queue = resources["TimerQueue"]["Properties"]
    assert queue["VisibilityTimeout"] >= 6 * template["Globals"]["Function"]["Timeout"]
    assert queue["RedrivePolicy"] == {
        "deadLetterTargetArn": {"Fn::GetAtt": ["TimerDeadLetterQueue", "Arn"]},
        "maxReceiveCount": 5,
    }

    table = resources["GameTable"]["Properties"]
    assert table["BillingMode"] == "PAY_PER_REQUEST"
    assert table["KeySchema"] == [{"AttributeName": "pk", "KeyType": "HASH"}]
    assert table["AttributeDefinitions"] == [{"AttributeName": "pk", "AttributeType": "S"}]
    assert table["TimeToLiveSpecification"] == {"AttributeName": "ttl", "Enabled": True}
    assert table["PointInTimeRecoverySpecification"] == {"PointInTimeRecoveryEnabled": True}


def test_outputs_name_the_webhook_url_table_and_queue() -> None:
    outputs = load_template()["Outputs"]
    assert outputs["WebhookUrl"]["Value"] == {"Fn::GetAtt": ["WebhookFunctionUrl", "FunctionUrl"]}
    assert outputs["GameTableName"]["Value"] == {"Ref": "GameTable"}
    assert outputs["TimerQueueUrl"]["Value"] == {"Ref": "TimerQueue"}
    assert outputs["TimerDeadLetterQueueUrl"]["Value"] == {"Ref": "TimerDeadLetterQueue"}
    assert outputs["WebhookMaxConnections"]["Value"] == {"Ref": "WebhookConcurrency"}
    assert outputs["BotTokenSecretArn"]["Value"] == {"Ref": "BotTokenSecret"}


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


def test_expanded_template_is_cfn_lint_clean(aws_env: None, tmp_path: Path) -> None:
    expanded = tmp_path / "expanded.json"
    expanded.write_text(json.dumps(expand_sam(load_template())))
    matches = lint_file(expanded, config=ManualArgs(include_checks=["I"]))
    assert [str(m) for m in matches] == []


# What each AWS call in the code needs in IAM. TransactWriteItems is authorised per item: the
# store only writes Put items (check_writes also allows Delete, which no handler issues).
CALL_ACTIONS = {
    "get_item": {"dynamodb:GetItem"},
    "batch_get_item": {"dynamodb:BatchGetItem"},
    "transact_write_items": {"dynamodb:PutItem"},
    "send_message": {"sqs:SendMessage"},
    "get_secret_value": {"secretsmanager:GetSecretValue"},
}
SQS_POLLING = {"sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:GetQueueAttributes"}
LOGGING = {"logs:CreateLogStream", "logs:PutLogEvents"}


def actions_the_code_performs() -> set[str]:
    calls: set[str] = set()
    for source in (TEMPLATE.parent / "infra").glob("*.py"):
        text = source.read_text()
        if "aws.client(" in text:  # the modules that talk to AWS (infra.aws's clients)
            calls |= set(re.findall(r"\.(\w+)\(", text)) & set(CALL_ACTIONS)
    return set().union(*(CALL_ACTIONS[c] for c in calls))


def role_statements(resources: dict[str, Any], function: str) -> list[dict[str, Any]]:
    role_id = resources[function]["Properties"]["Role"]["Fn::GetAtt"][0]
    role = resources[role_id]["Properties"]
    assert "ManagedPolicyArns" not in role  # e.g. the SQS poller's managed policy: every queue
    return [st for policy in role["Policies"] for st in policy["PolicyDocument"]["Statement"]]


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def test_expanded_roles_grant_only_what_the_code_does(aws_env: None) -> None:
    resources = expand_sam(load_template())["Resources"]
    code = actions_the_code_performs()
    assert code == {a for actions in CALL_ACTIONS.values() for a in actions}
    expected = {
        "WebhookFunction": code | LOGGING,
        "TimerFunction": code | SQS_POLLING | LOGGING,
    }
    for function, wanted in expected.items():
        statements = role_statements(resources, function)
        granted = {a for st in statements for a in as_list(st["Action"])}
        assert granted == wanted, function
        for st in statements:
            assert st["Effect"] == "Allow"
            assert "*" not in json.dumps(st["Resource"]), (function, st)
            if any(a.startswith("sqs:") for a in as_list(st["Action"])):
                assert st["Resource"] == {"Fn::GetAtt": ["TimerQueue", "Arn"]}
            if any(a.startswith("dynamodb:") for a in as_list(st["Action"])):
                assert st["Resource"] == {"Fn::GetAtt": ["GameTable", "Arn"]}
    timer_secrets = [
        st["Resource"]
        for st in role_statements(resources, "TimerFunction")
        if "secretsmanager:GetSecretValue" in as_list(st["Action"])
    ]
    assert timer_secrets == [{"Ref": "BotTokenSecret"}]  # the timer never sees the webhook secret
    lambdas = [r for r in resources.values() if r["Type"] == "AWS::Lambda::Function"]
    assert all("Role" in f["Properties"] for f in lambdas)
    assert not [r for r in resources.values() if r["Type"] == "AWS::IAM::Policy"]


def test_expanded_concurrency_limits_match_telegram_max_connections(aws_env: None) -> None:
    from devtools.register_webhook import DEFAULT_MAX_CONNECTIONS

    template = load_template()
    resources = expand_sam(template)["Resources"]
    reserved = resources["WebhookFunction"]["Properties"]["ReservedConcurrentExecutions"]
    assert reserved == {
        "Fn::If": ["ReserveConcurrency", {"Ref": "WebhookConcurrency"}, {"Ref": "AWS::NoValue"}]
    }
    assert template["Parameters"]["WebhookConcurrency"]["Default"] == DEFAULT_MAX_CONNECTIONS
    (mapping,) = [r for r in resources.values() if r["Type"] == "AWS::Lambda::EventSourceMapping"]
    scaling = mapping["Properties"]["ScalingConfig"]
    assert scaling == {"MaximumConcurrency": {"Ref": "TimerMaxConcurrency"}}
    assert mapping["Properties"]["FunctionName"] == {"Ref": "TimerFunctionAliaslive"}
    url = resources["WebhookFunctionUrl"]["Properties"]
    # The URL serves the alias: pointing `live` at an older version rolls the webhook back.
    assert url["TargetFunctionArn"] == {"Ref": "WebhookFunctionAliaslive"}


def aws_operations_the_code_calls() -> set[str]:
    """Every operation of the services the functions call (botocore's models) whose method a
    shipped module calls, as ``client.get_item(`` names it; a new call is found by itself."""
    import botocore.session
    from botocore import xform_name

    from deploy.package import CALLED_SERVICES, called_operations

    session = botocore.session.get_session()
    called = called_operations()
    found: set[str] = set()
    for service in CALLED_SERVICES:
        model = session.get_service_model(service)
        for operation in model.operation_names:
            method = xform_name(operation)
            if method.replace("_", "") in called:
                found.add(method)
    return found


def test_every_aws_call_of_the_shipped_code_has_its_iam_action() -> None:
    """The roles grant what CALL_ACTIONS lists; a call of the code not listed there (an
    UpdateItem, a Query, a DeleteMessage) would be refused in AWS with AccessDenied while every
    test on moto passed: it must be listed, and granted, or not made."""
    calls = aws_operations_the_code_calls()
    assert calls == set(CALL_ACTIONS), calls ^ set(CALL_ACTIONS)
