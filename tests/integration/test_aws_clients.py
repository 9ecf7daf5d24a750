"""The lean botocore session of the Lambda path's clients (infra.aws.lean_session): for the
services the Lambda calls it reaches exactly the built-in handlers botocore's own session
reaches, for every operation and event, and it leaves out the other services' handlers (what a
cold start saved by it: README, *Cold start and sizing*)."""

from __future__ import annotations

from typing import Any

import botocore.session
import pytest
from botocore import handlers

from deploy.package import AWS_SERVICES
from infra import aws

DOC_SECTIONS = ("client-api", "method", "request-example", "request-params", "response-params")


def reached(session: Any, event: str) -> list[Any]:
    """The handlers an event of ``session`` reaches, in order (botocore's emitter, behind the
    session's aliaser)."""
    return list(session._events._emitter._handlers.prefix_search(event))


def test_the_lean_services_are_the_shipped_models_by_their_event_names() -> None:
    """The event names are the models' own (service id, hyphenized), and the services are those
    whose models the package ships."""
    session = botocore.session.get_session()
    assert set(aws.LEAN_SERVICES) == set(AWS_SERVICES)
    for service, events_name in aws.LEAN_SERVICES.items():
        assert session.get_service_model(service).service_id.hyphenize() == events_name


@pytest.mark.parametrize("service", sorted(aws.LEAN_SERVICES))
def test_the_lean_session_reaches_the_handlers_botocores_session_reaches(service: str) -> None:
    full, lean = botocore.session.get_session(), aws.lean_session()
    model = full.get_service_model(service)
    name = aws.LEAN_SERVICES[service]
    kinds = {event.split(".")[0] for event, *_ in handlers.BUILTIN_HANDLERS} - {"docs"}
    events = list(kinds) + [f"{kind}.{name}" for kind in kinds]
    for operation in model.operation_names:
        events += [f"{kind}.{name}.{operation}" for kind in kinds]
        events += [f"docs.{s}.{name}.{operation}.complete-section" for s in DOC_SECTIONS]
    assert len(events) > 50
    for event in events:
        assert reached(lean, event) == reached(full, event), event


def test_the_lean_session_leaves_out_other_services_handlers() -> None:
    full, lean = botocore.session.get_session(), aws.lean_session()
    for event in ("before-call.s3.PutObject", "before-parameter-build.glacier.UploadArchive"):
        assert len(reached(lean, event)) < len(reached(full, event))


def test_the_lambda_paths_clients_come_from_the_lean_session(monkeypatch: Any) -> None:
    """Clients of the Lambda's services share one lean session; any other service's client
    (the operator's tools) comes from botocore's full session."""
    monkeypatch.setenv("AWS_DEFAULT_REGION", "eu-central-1")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "lean-session-test")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "x")
    aws.reset()
    try:
        dynamodb, sqs, other = aws.client("dynamodb"), aws.client("sqs"), aws.client("s3")
        lean = aws._sessions["lean-session-test", True]
        assert dynamodb.meta.events is not other.meta.events
        assert aws._sessions["lean-session-test", False] is not lean
        assert sqs.meta.service_model.service_name == "sqs"
        assert reached(lean, "before-call.s3.PutObject") != reached(
            aws._sessions["lean-session-test", False], "before-call.s3.PutObject"
        )
    finally:
        aws.reset()
