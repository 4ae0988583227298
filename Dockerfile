# pis-conformance in a container: Debian (bookworm) with Node 20, and Debian's
# Chromium for the browser consent driver (--consent-driver browser finds it at
# /usr/bin/chromium). The package is installed the way a user installs it:
# npm pack in a first stage, then npm install -g of the tarball.
# test/package/install.test.ts runs these npm commands outside a container.
#
#   docker build -t pis-conformance .
#   docker run --rm -e PIS_CLIENT_SECRET -v "$PWD/reports:/home/node/reports" \
#     pis-conformance run --auth-url https://auth.example --client-id my-client --base-url https://api.example/ics/v3
FROM node:20-bookworm-slim AS pack
WORKDIR /src
COPY . .
RUN mkdir -p /tmp/pack && npm pack --pack-destination /tmp/pack

FROM node:20-bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium \
 && rm -rf /var/lib/apt/lists/*
COPY --from=pack /tmp/pack/ /tmp/pack/
RUN npm install -g --no-audit --no-fund /tmp/pack/pis-conformance-*.tgz && rm -rf /tmp/pack
# The compiled copy of the command (docs/cli.md), built here by root: the user
# below cannot write the installed package's folder, and would run the sources
# through tsx at every start.
RUN pis-conformance --version
USER node
WORKDIR /home/node
ENTRYPOINT ["pis-conformance"]
CMD ["--help"]
