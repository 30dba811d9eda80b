# The production image, built from Boot's layered jar with a JDK AOT cache (docker compose up --build, or
# docker build -t allot .). Nothing here needs a jar built beforehand.
#
# 1. build: the production jar (-Pproduction: no embedded PostgreSQL), extracted into its layers
FROM eclipse-temurin:25-jdk AS build
WORKDIR /src
COPY .mvn .mvn
COPY mvnw pom.xml ./
RUN ./mvnw -B -ntp -q dependency:go-offline -Pproduction || true
COPY src src
COPY db db
COPY ui-templates ui-templates
RUN ./mvnw -B -ntp -Pproduction -DskipTests package \
 && cp target/allot-*.jar allot.jar \
 && java -Djarmode=tools -jar allot.jar extract --layers --destination extracted

# 2. run: one image layer per jar layer (dependencies change rarely, the application often)
FROM eclipse-temurin:25-jre
RUN useradd --system --uid 10001 allot
WORKDIR /app
COPY --from=build /src/extracted/dependencies/ ./
COPY --from=build /src/extracted/spring-boot-loader/ ./
COPY --from=build /src/extracted/snapshot-dependencies/ ./
COPY --from=build /src/extracted/application/ ./
# The training run for the JDK AOT cache (JDK 25, -XX:AOTCacheOutput): start against a throwaway PostgreSQL,
# migrate, create every bean, exit at the end of the refresh; the classes loaded and linked then are cached in
# app.aot, which every start below maps instead of loading them again. PostgreSQL is removed in the same layer.
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends postgresql >/dev/null \
 && pg_ctlcluster "$(ls /etc/postgresql)" main start \
 && su postgres -c "psql -qc \"CREATE DATABASE allot_training\"" \
 && su postgres -c "psql -qc \"ALTER USER postgres PASSWORD 'training'\"" \
 && java -XX:AOTCacheOutput=app.aot -XX:+UseG1GC -XX:MaxRAMPercentage=75 -Dspring.context.exit=onRefresh \
      -jar /app/allot.jar \
      --spring.datasource.url=jdbc:postgresql://127.0.0.1:5432/allot_training \
      --spring.datasource.username=postgres --spring.datasource.password=training \
      --allot.security.sealing-key="$(head -c 32 /dev/urandom | base64)" --db-scheduler.enabled=false \
 && pg_ctlcluster "$(ls /etc/postgresql)" main stop \
 && apt-get purge -y -qq 'postgresql*' >/dev/null && apt-get autoremove -y -qq >/dev/null \
 && rm -rf /var/lib/postgresql /etc/postgresql /var/lib/apt/lists/* \
 && chmod a+r app.aot
USER allot
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=40s \
  CMD wget -qO- http://127.0.0.1:8080/actuator/health/readiness || exit 1
# the same collector as in training (the JVM would pick Serial on a small container, and the cache then refuses)
ENTRYPOINT ["java", "-XX:AOTCache=/app/app.aot", "-XX:+UseG1GC", "-XX:MaxRAMPercentage=75", "-jar", "/app/allot.jar"]
