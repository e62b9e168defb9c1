# Guandan Online server image: the same steps as scripts/run.sh (build the browser client with
# npm ci && npm run build, pip install the project) and the same command, guandan-server.
# Redis is a separate service (see docker-compose.yml), reached through REDIS_URL.

FROM node:20-bookworm-slim AS client
WORKDIR /src
COPY . .
RUN if [ -f client-js/package.json ]; then cd client-js && npm ci && npm run build; fi \
    && mkdir -p client-js/dist

FROM python:3.11-slim-bookworm
WORKDIR /app
COPY --from=client /src /app
RUN rm -rf /app/client-js/node_modules && pip install --no-cache-dir -e .
ENV REDIS_URL=redis://redis:6379/0
EXPOSE 8765
CMD ["guandan-server", "--host", "0.0.0.0", "--port", "8765"]
