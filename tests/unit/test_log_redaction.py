"""infra.logs' redaction filter as the Lambda runtime's JSON formatter meets a record: every
``extra=`` field it prints, whatever its type (the runtime writes a field that is no string,
number, dict or list with ``str()``), holds neither the token nor the webhook secret."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass

from infra import logs

TOKEN = "987654321:AAredactionTOKENkey_0123456789abcdef"
SECRET = "redactionWEBHOOKsecret0123456789abcdefXYZ"


@dataclass
class Request:
    url: str


def test_fields_of_any_type_are_redacted_and_others_left_as_they_are() -> None:
    redactor = logs.Redactor()
    redactor.protect(TOKEN, SECRET)
    record = logging.LogRecord("x", logging.WARNING, __file__, 1, "failed", None, None)
    record.request = Request(f"https://api.telegram.org/bot{TOKEN}/sendMessage")
    record.pair = ("sendMessage", SECRET)
    record.error = ValueError(f"bad header {SECRET}")
    record.count = 3
    record.plain = Request("https://example.org/")
    assert redactor.filter(record)
    line = json.dumps(logs.extra_fields(record), default=str)  # as the runtime prints it
    assert TOKEN.split(":")[1] not in line and SECRET not in line, line
    assert line.count(logs.REDACTED) == 3
    assert record.count == 3 and record.plain == Request("https://example.org/")
