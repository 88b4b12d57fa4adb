# syntax=docker/dockerfile:1
# The referee image. Stage 1 builds the wheel the way `make test` (.ci/run) does: the PEP 517
# build of pyproject.toml (setuptools + Cython compile the core's hot modules, grpcio-tools
# generates referee.v1), and checks the wheel holds the compiled core built from these sources.
# Stage 2 installs it into a slim Python without a compiler and runs it as a non-root user.
ARG PYTHON_VERSION=3.11

FROM python:${PYTHON_VERSION}-bookworm AS build
WORKDIR /src
COPY pyproject.toml setup.py ./
COPY core/ core/
COPY service/ service/
COPY protos/ protos/
COPY .ci/check_build.py .ci/check_build.py
RUN python -m pip wheel --no-cache-dir --wheel-dir /wheels .
RUN python -m venv /check \
 && /check/bin/pip install --no-cache-dir --no-index --find-links /wheels referee \
 && cd / && /check/bin/python /src/.ci/check_build.py

FROM python:${PYTHON_VERSION}-slim-bookworm AS runtime
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
RUN groupadd --system --gid 10001 referee \
 && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent \
        --shell /usr/sbin/nologin referee
# pip compiles the .pyc files here, so a read-only root filesystem is fine at run time
RUN --mount=type=bind,from=build,source=/wheels,target=/wheels \
    python -m pip install --no-cache-dir --no-index --find-links /wheels referee \
 && if command -v gcc || command -v cc; then echo "a compiler in the runtime image" >&2; exit 1; fi \
 && referee version
USER 10001:10001
EXPOSE 50051 9100
ENTRYPOINT ["referee"]
CMD ["serve", "--host", "0.0.0.0", "--port", "50051", "--metrics-port", "9100"]
