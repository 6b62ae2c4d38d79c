# syntax=docker/dockerfile:1
# Scout's production image: compiled in one stage, run as plain `node dist/main.js` (no tsx, no TypeScript) in the
# last. Build: docker build -t scout .   Run: see "Run it in production" in README.md.

# Node 20 with what better-sqlite3 needs to compile its native addon when no prebuilt binary can be downloaded.
FROM node:20-slim AS toolchain
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app

# The runtime dependencies only, native addon included, built on the same base the runtime stage uses.
FROM toolchain AS deps
COPY package.json package-lock.json ./
RUN npm ci --omit=dev

# Every dependency, TypeScript included, to compile src/ to dist/.
FROM toolchain AS build
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

FROM node:20-slim
ENV NODE_ENV=production \
  DATABASE_PATH=/data/scout.db \
  PORT=3000
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# package.json says the compiled files are ES modules ("type": "module").
COPY package.json ./
# The database lives on the volume, owned by the unprivileged user; the code stays root's, read-only to it.
# ./data (the default database folder, and where the terminal saves exports) points there too.
RUN mkdir -p /data \
  && chown node:node /data \
  && ln -s /data /app/data
VOLUME /data
USER node
# Slack's HTTP mode and the operator endpoints (/healthz, /readyz, /metrics) listen on PORT.
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node runs Scout directly (no npm in between), so `docker stop`'s SIGTERM reaches it: Scout stops its servers, jobs
# and database, then exits.
CMD ["node", "dist/main.js"]
