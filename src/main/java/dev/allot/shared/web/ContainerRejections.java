package dev.allot.shared.web;

import dev.allot.shared.AllotException;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import org.apache.catalina.Host;
import org.apache.catalina.Valve;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.tomcat.ConfigurableTomcatWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * Requests Tomcat refuses before the application sees them (an encoded slash or NUL in the path, a control
 * character in a header, an unparsable request line) are answered with a problem too, instead of Tomcat's HTML
 * page: the host's error report valve is replaced by {@link ProblemReportValve}.
 */
@Component
@Order(Ordered.LOWEST_PRECEDENCE)
class ContainerRejections implements WebServerFactoryCustomizer<ConfigurableTomcatWebServerFactory> {

    @Override
    public void customize(ConfigurableTomcatWebServerFactory factory) {
        factory.addContextCustomizers(context -> {
            Host host = (Host) context.getParent();
            for (Valve valve : host.getPipeline().getValves()) {
                if (valve instanceof ErrorReportValve) {
                    host.getPipeline().removeValve(valve);
                }
            }
            host.getPipeline().addValve(new ProblemReportValve());
            // the host adds its own valve of this class at start unless one is there
            if (host instanceof StandardHost standard) {
                standard.setErrorReportValveClass(ProblemReportValve.class.getName());
            }
        });
    }

    /** Reports an error nothing else answered as a problem, with one line in the log and no stack trace. */
    public static class ProblemReportValve extends ErrorReportValve {

        private static final Logger log = LoggerFactory.getLogger(ProblemReportValve.class);

        public ProblemReportValve() {
            setShowReport(false);
            setShowServerInfo(false);
        }

        @Override
        protected void report(Request request, Response response, Throwable throwable) {
            int status = response.getStatus();
            // as Tomcat's own valve: only an error not yet reported, with nothing written
            if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
                return;
            }
            String code = ApiProblems.code(status);
            HttpStatus known = HttpStatus.resolve(status);
            String title = known == null ? "Error" : known.getReasonPhrase();
            String detail = status == 400
                    ? "The request line, path or a header is malformed"
                    : "The request was refused before it reached the API: " + title;
            StringBuilder body = new StringBuilder("{\"type\":\"")
                    .append(AllotException.TYPE_BASE)
                    .append(code)
                    .append("\",\"title\":\"")
                    .append(title)
                    .append("\",\"status\":")
                    .append(status)
                    .append(",\"detail\":\"")
                    .append(detail)
                    .append("\",\"code\":\"")
                    .append(code)
                    .append('"');
            if (status == 400) {
                body.append(",\"errors\":[{\"field\":\"request\",\"message\":\"")
                        .append(detail)
                        .append("\"}]");
            }
            body.append('}');
            try {
                response.setContentType("application/problem+json");
                response.setCharacterEncoding(StandardCharsets.UTF_8.name());
                Writer writer = response.getReporter();
                if (writer != null) {
                    writer.write(body.toString());
                    response.finishResponse();
                }
            } catch (IOException | IllegalStateException ex) {
                // the client is gone, or the response could not be written: nothing more to tell anyone
            }
        }
    }
}
