# Two stages: build a wheel, then a slim runtime with a non-root user.
FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY bot ./bot
RUN pip wheel --no-cache-dir --wheel-dir /wheels .

FROM python:3.11-slim
RUN useradd --create-home --uid 10001 tablebot
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir /wheels/*.whl && rm -rf /wheels
USER tablebot
WORKDIR /home/tablebot
ENV DATA_DIR=/home/tablebot/data
CMD ["python", "-m", "bot"]
