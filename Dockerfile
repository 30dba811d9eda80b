# Build: ./mvnw -DskipTests package && docker compose up --build
FROM eclipse-temurin:25-jre
RUN useradd --system --uid 10001 allot
WORKDIR /app
COPY target/allot-*.jar /app/allot.jar
USER allot
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=40s \
  CMD wget -qO- http://127.0.0.1:8080/actuator/health/readiness || exit 1
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=75", "-jar", "/app/allot.jar"]
