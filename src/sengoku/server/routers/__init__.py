"""The HTTP and WebSocket API, one router per concern; ``server/app.py`` assembles them."""
