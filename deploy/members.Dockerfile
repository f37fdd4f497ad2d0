# The members site: the gate server (build/server) deciding per request
# between build/public and build/members, on production dependencies only
# (fastify, jose, cookie, mime-types), as a non-root user. Stateless: run as
# many replicas as you like behind any load balancer (README, "Deploy and operate").
#
#   docker build -f deploy/members.Dockerfile \
#     --build-arg WORKOS_CLIENT_ID=client_... --build-arg WORKOS_API_HOSTNAME=auth.example.com \
#     --build-arg SITE_URL=https://docs.example.com -t developer-portal-members .
#   docker run -p 8080:8080 -e WORKOS_CLIENT_ID=client_... -e WORKOS_API_HOSTNAME=auth.example.com \
#     -e WORKOS_ORGANIZATION_ID=org_... -e PORTAL_SESSION_SECRET=... developer-portal-members
#
# The site is built with the provider settings (they go into the pages and
# the Content-Security-Policy); the gate reads the same ones at start-up.

FROM node:20-bookworm-slim AS build
WORKDIR /src
ARG SITE_URL
ARG BASE_URL
ARG WORKOS_CLIENT_ID
ARG WORKOS_ORGANIZATION_ID
ARG WORKOS_API_HOSTNAME
ARG WORKOS_REDIRECT_URI
ARG WORKOS_DEV_MODE=false
ARG PORTAL_BUILD_ID
# git: the docs' last-updated dates and the build id.
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends git ca-certificates && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN test -n "$WORKOS_CLIENT_ID" || (echo "build with --build-arg WORKOS_CLIENT_ID=..." >&2; exit 1)
RUN npm run build && npm run leak-check && npm prune --omit=dev

FROM node:20-bookworm-slim
ARG BASE_URL=/
ARG SITE_URL
# SITE_URL: the origin the MCP endpoint answers to and names in its OAuth metadata (PORTAL_PUBLIC_ORIGIN overrides it at run time).
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 PORTAL_BASE_URL=${BASE_URL} SITE_URL=${SITE_URL}
WORKDIR /app
# Only what runs: production dependencies and the build output. The local
# sign-in provider (build/server/scripts) is a development tool and stays out.
COPY --from=build --chown=root:root /src/package.json ./package.json
COPY --from=build --chown=root:root /src/node_modules ./node_modules
COPY --from=build --chown=root:root /src/build/access-manifest.json ./build/access-manifest.json
COPY --from=build --chown=root:root /src/build/file-index.json ./build/file-index.json
COPY --from=build --chown=root:root /src/build/public ./build/public
COPY --from=build --chown=root:root /src/build/members ./build/members
COPY --from=build --chown=root:root /src/build/server/server ./build/server/server
COPY --from=build --chown=root:root /src/build/server/src ./build/server/src
USER node
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=3s CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.PORT+process.env.PORTAL_BASE_URL+'_portal/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "build/server/server/main.js"]
