# Forma in a container: a static binary in a distroless image, running as
# non-root, with its data (the SQLite file and uploads) in the /data volume.
#   docker build -t forma .
#   docker run -p 8080:8080 -v forma-data:/data -e FORMA_PUBLIC_URL=http://localhost:8080 forma

FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# The same command the tests build their binary with (cmd/forma/main_test.go).
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/forma ./cmd/forma
RUN mkdir -p /out/data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/forma /usr/local/bin/forma
# The volume's folder belongs to the image's non-root user (65532).
COPY --from=build --chown=65532:65532 /out/data /data
USER 65532:65532
ENV FORMA_DATA_DIR=/data FORMA_ADDR=:8080
VOLUME /data
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["/usr/local/bin/forma", "healthcheck"]
ENTRYPOINT ["/usr/local/bin/forma"]
CMD ["serve"]
