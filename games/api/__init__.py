"""The HTTP API for outside engines and tools (docs/api.md): personal access tokens,
JSON answers and NDJSON streams under ``/api/``.

- ``auth``: the bearer token, its scopes and its rate; the error answer;
- ``reads``: what the streams say of a match and of an account (database reads);
- ``views``: the POST calls, each one service of ``games/play`` (the WebSocket's);
- ``streams``: the two NDJSON streams, async views on daphne's loop over the hub.
"""
