# Parlour, the card games bot. Build: docker build -t parlour .
# Run:   docker run -d --name parlour -e DISCORD_TOKEN=... -v parlour-data:/data parlour
# A bind-mounted data folder (-v /srv/parlour:/data) must be writable by the bot's user,
# uid 10001: sudo chown 10001 /srv/parlour
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PARLOUR_DATABASE=/data/parlour.sqlite3

RUN useradd --create-home --uid 10001 parlour \
    && mkdir /data && chown parlour:parlour /data

WORKDIR /app
COPY pyproject.toml README.md LICENSE ./
COPY engine ./engine
COPY bot ./bot
# `python -m bot` runs /app/bot (the working directory comes first on sys.path), and with
# PYTHONDONTWRITEBYTECODE nothing would cache its bytecode: compile it once here, or every
# start compiles it again (about 0.2 s of each restart). The same for the parsed message
# catalogue (bot/locales/__pycache__), which the bot's user could not write.
RUN pip install . && python -m compileall -q engine bot \
    && python -c "from bot.i18n import catalogue; catalogue()"

USER parlour
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
