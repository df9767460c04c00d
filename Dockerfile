FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npx tsc -p tsconfig.build.json && npm prune --omit=dev \
 && node -e "import('./dist/providers/embeddings/local.js').then((m) => new m.LocalEmbedder().init())"
# (the last step writes the offline embedder's binary vector cache into node_modules/.cache)

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY bin ./bin
COPY ui ./ui
RUN ln -s /app/bin/engram.js /usr/local/bin/engram \
 && mkdir -p /app/data && chown node:node /app/data
# Without DATABASE_URL the embedded store lives in /app/data (mount a volume there to keep it).
ENV ENGRAM_DATA_DIR=/app/data ENGRAM_HOST=0.0.0.0 ENGRAM_PORT=8787
VOLUME ["/app/data"]
USER node
EXPOSE 8787
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.ENGRAM_PORT||8787)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "bin/engram.js", "serve"]
