# Two stages: build a wheel, then a slim runtime with a non-root user.
FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md LICENSE ./
COPY bot ./bot
RUN pip wheel --no-cache-dir --wheel-dir /wheels .

FROM python:3.11-slim
RUN useradd --create-home --uid 10001 tablebot
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir /wheels/*.whl && rm -rf /wheels
USER tablebot
WORKDIR /home/tablebot
ENV DATA_DIR=/home/tablebot/data \
    METRICS_HOST=0.0.0.0 \
    METRICS_PORT=8080
EXPOSE 8080
# Ready when the gateway is connected and Redis answers (see bot/health.py).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8080/healthz', timeout=4)"]
# The bot handles SIGTERM itself (finishes moves, stops Redis) and exits within 10 s.
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
