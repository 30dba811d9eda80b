package dev.allot.replicas;

import dev.allot.support.TestDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ThreadLocalRandom;

/** A fresh database of its own on the tests' PostgreSQL server, for application processes a test starts. */
record ScratchDatabase(String name, String url, String username, String password) {

    static ScratchDatabase create(String prefix) throws SQLException {
        TestDatabase.Connection server = TestDatabase.get();
        String name = prefix + Long.toString(ThreadLocalRandom.current().nextLong(1L << 30, 1L << 35), 36);
        execute(server, "CREATE DATABASE " + name);
        return new ScratchDatabase(
                name, TwoReplicasTests.withDatabase(server.url(), name), server.username(), server.password());
    }

    void drop() throws SQLException {
        execute(TestDatabase.get(), "DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
    }

    private static void execute(TestDatabase.Connection server, String sql) throws SQLException {
        try (Connection admin = DriverManager.getConnection(server.url(), server.username(), server.password());
                Statement statement = admin.createStatement()) {
            statement.execute(sql);
        }
    }
}
