# dixtrix serve in a container (docs/server.md, "Several processes"):
#   docker build -t dixtrix .
#   docker run -p 8000:8000 -v dixtrix-data:/data dixtrix                  # SQLite in /data
#   docker run -p 8000:8000 -e PGPASSWORD=... dixtrix \
#       --db postgresql://dixtrix@db.example:5432/dixtrix                   # PostgreSQL
# The first stage compiles the Cython kernels into wheels; the second has
# only what runs them (OpenMP's runtime), no compiler.
FROM python:3.11-slim-bookworm AS build
RUN apt-get update \
    && apt-get install -y --no-install-recommends build-essential \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY pyproject.toml setup.py README.md LICENSE ./
COPY csrc csrc
COPY solver solver
COPY bots bots
RUN pip wheel --no-cache-dir --wheel-dir /wheels ".[server,postgres]"

FROM python:3.11-slim-bookworm
RUN apt-get update \
    && apt-get install -y --no-install-recommends libgomp1 \
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir --no-index --find-links /wheels "dixtrix[server,postgres]" \
    && rm -rf /wheels
# never root: a process that serves the network owns nothing but its data
RUN useradd --system --create-home --uid 10001 dixtrix \
    && mkdir /data && chown dixtrix /data
USER dixtrix
WORKDIR /home/dixtrix
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s \
    CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2)"
# SIGTERM (docker stop) ends the searches under way and hands the bots' turns back
STOPSIGNAL SIGTERM
ENTRYPOINT ["dixtrix", "serve", "--host", "0.0.0.0", "--port", "8000", "--log-format", "json"]
CMD ["--db", "/data/tables.db"]
