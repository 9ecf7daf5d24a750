"""DynamoDB for the store through moto's in-process mock, for tests that play many whole games.

``infra.aws_json`` talks HTTP, which moto's in-process mock cannot intercept; moto's server
costs each request about twice as much, and a game makes hundreds. The store's calls and their
answers have botocore's shapes, so a boto3 client under ``mock_aws`` serves them, its errors
turned into the ``AwsError`` the store handles. The store on ``infra.aws_json`` itself is
checked against moto's server (tests/integration/test_store_contract.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from botocore.exceptions import ClientError

from infra.aws_json import AwsError, DynamoDB

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.client import DynamoDBClient


class MockedDynamoDB(DynamoDB):
    def __init__(self, client: DynamoDBClient) -> None:  # no JsonClient: nothing goes out
        self._client = client

    def get_item(self, **params: Any) -> dict[str, Any]:
        return self._call(self._client.get_item, params)

    def batch_get_item(self, **params: Any) -> dict[str, Any]:
        return self._call(self._client.batch_get_item, params)

    def transact_write_items(self, **params: Any) -> dict[str, Any]:
        return self._call(self._client.transact_write_items, params)

    def _call(self, operation: Callable[..., Any], params: dict[str, Any]) -> dict[str, Any]:
        try:
            return dict(operation(**params))
        except ClientError as error:
            answer: dict[str, Any] = dict(error.response)
            code = answer.get("Error", {}).get("Code", "")
            message = answer.get("Error", {}).get("Message", "")
            status = answer.get("ResponseMetadata", {}).get("HTTPStatusCode", 400)
            details = {k: v for k, v in answer.items() if k not in ("Error", "ResponseMetadata")}
            raise AwsError(error.operation_name, code, message, status, details) from None
