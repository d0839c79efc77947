"""The API's one request parser: standard JSON, read as the WebSocket reads a frame.

A body is UTF-8 JSON read by ``games.core.validation.loads``, the rule a WebSocket frame is read by
(no NaN or Infinity, nested at most ``MAX_NESTING`` deep, no NUL or lone surrogate in a string);
anything else is a 400 ``ParseError`` before a view sees it.
There is no form or multipart parser: a form field is always a string, and the integer fields take
JSON integers only, so such bodies are refused (415 ``UnsupportedMediaType``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO, Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from games.core import validation


def parse_json(raw: bytes) -> Any:
    """``raw`` as standard JSON, or a ``ParseError`` saying why not."""
    try:
        # Whatever charset is declared: JSON between systems is UTF-8 (RFC 8259), as a text frame is.
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ParseError("a JSON body must be UTF-8 text") from None
    try:
        return validation.loads(text)
    except ValueError as error:
        raise ParseError(f"the body is not standard JSON: {error}") from None


class StrictJSONParser(JSONParser):
    # A JSONParser, so that DRF hands it Django's ``request.body``, read within DATA_UPLOAD_MAX_MEMORY_SIZE.

    def parse(self, stream: IO[bytes], media_type: str | None = None,
              parser_context: Mapping[str, Any] | None = None) -> Any:
        return parse_json(stream.read())
