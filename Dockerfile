# One image for every process of the distributed deployment (docker-compose.yml): the gateway and
# each service run compiled, `node dist/processes/<name>.mjs` (npm run build:services, below), from the
# same source tree (the migrations are read from it).
# Node.js 24 LTS, the line the project pins (package.json's `node` devDependency and `engines`,
# docs/decisions.md); gateway/test/compose.test.ts checks that the two agree.
FROM node:24-bookworm-slim

WORKDIR /app

# The whole tree first, then install: a workspace added to package.json is picked up without
# editing this file (at the cost of a reinstall when any file changes). .dockerignore keeps
# node_modules, local data and infra run state out of the build context.
COPY . .

# Dev dependencies stay: esbuild and tsx compile the processes, vite builds the frontend.
# npm ci refuses a lock written on machines whose registry lacks some other-platform optional
# packages (e.g. @turbo/darwin-64); npm install then still follows the lock.
RUN npm ci --no-audit --no-fund || npm install --no-audit --no-fund

RUN npm run build -w @countinghouse/frontend
# every process compiled to plain JavaScript: no TypeScript compiler loaded at start (docs/perf/processes.md)
RUN npm run build:services

ENV NODE_ENV=production \
    HOST=0.0.0.0

USER node
EXPOSE 3000
CMD ["node", "dist/processes/gateway.mjs"]
