"""What a client speaks to: the FastAPI application (REST routes, health, the websocket), one websocket client
and its checks, the messages as pydantic models, and what only the browser table needs (its pages and static
files, the rulesets in words, replays, a seat's own history). It drives tables only through
rummoli.server.tables."""
