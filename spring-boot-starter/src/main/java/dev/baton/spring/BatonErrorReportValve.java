package dev.baton.spring;

import dev.baton.http.BatonHttpServlet;
import jakarta.servlet.ServletException;
import java.io.IOException;
import org.apache.catalina.Container;
import org.apache.catalina.Context;
import org.apache.catalina.Pipeline;
import org.apache.catalina.Valve;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tomcat's error report, with Baton's problem documents under Baton's base path: what Tomcat refuses
 * before any servlet runs (a bad percent-escape, an over-long URI or header) is answered like every
 * other error of the API ({@code application/problem+json} with its security headers), and so is a
 * request whose line Tomcat could not read at all (it names no path). A method Tomcat refuses itself
 * ({@code TRACE}) gets the problem, not the application's error page; an HTTP/0.9 request, which
 * Tomcat would answer without a status line or headers, gets an HTTP/1.1 {@code 505} problem, as on
 * Jetty. Other paths keep Tomcat's own report. Installed as the host's error report valve (in place of Spring Boot's), on
 * Spring Boot 4 and 3.5.
 *
 * <p>Thread-safe (immutable).
 */
public class BatonErrorReportValve extends ErrorReportValve {
    private static final Logger LOG = LoggerFactory.getLogger(BatonErrorReportValve.class);
    private final String mount;

    /**
     * A valve for the API mounted at {@code mount}.
     *
     * @param mount the API's mount, without its trailing slash ({@code ""} for the root)
     */
    public BatonErrorReportValve(String mount) {
        this.mount = mount;
        setShowReport(false);
        setShowServerInfo(false);
    }

    /**
     * Makes this the error report valve of the context's host, for the API mounted at {@code basePath}.
     *
     * @param context  a context of the host
     * @param basePath the API's mount, without its trailing slash ({@code ""} for the root)
     */
    public static void install(Context context, String basePath) {
        Container host = context.getParent();
        Pipeline pipeline = host.getPipeline();
        for (Valve v : pipeline.getValves()) {
            if (v instanceof ErrorReportValve) pipeline.removeValve(v);   // Spring Boot's, or one installed before
        }
        pipeline.addValve(new BatonErrorReportValve(basePath));
        // the host adds a valve of this class at its start only if it has none
        if (host instanceof StandardHost h) h.setErrorReportValveClass(BatonErrorReportValve.class.getName());
    }

    @Override
    public void invoke(Request request, Response response) throws IOException, ServletException {
        if (ours(request.getRequestURI())) {
            if ("".equals(request.getProtocol())) {   // HTTP/0.9 (Tomcat serves it): refused, as Jetty does
                response.setSuspended(false);   // a sendError of Tomcat's suspended it (ErrorReportValve.invoke undoes it too)
                http09(response);
                return;
            }
            if (response.isErrorReportRequired()) {   // refused before any servlet ran (TRACE): no error page, the problem
                response.getCoyoteResponse().getMimeHeaders().removeHeader("Allow");   // Tomcat's guess, not the route's
                response.setSuspended(false);
                report(request, response, null);
                return;
            }
        }
        super.invoke(request, response);
    }

    /** Whether Baton answers for {@code uri}; a request line Tomcat could not read names no path: it may be Baton's. */
    private boolean ours(@Nullable String uri) {
        return uri == null || !uri.startsWith("/") || uri.startsWith(mount + "/") || uri.equals(mount);
    }

    /**
     * Tomcat writes an HTTP/0.9 answer without a status line or headers: the answer is written whole, an
     * HTTP/1.1 {@code 505} with the security headers and the problem, what Jetty sends.
     */
    private static void http09(Response response) {
        response.setErrorReported();
        try {
            response.getOutputStream().write(BatonHttpServlet.containerErrorBytes(505));
            response.finishResponse();
        } catch (IOException | IllegalStateException e) {
            LOG.debug("the problem for an HTTP/0.9 request was not written: {}", e.toString());
        }
    }

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        String uri = request.getRequestURI();
        if (status < 400 || !ours(uri)) {
            super.report(request, response, throwable);
            return;
        }
        if (response.getContentWritten() > 0 || !response.setErrorReported()) return;
        try {
            response.resetBuffer();
            BatonHttpServlet.writeContainerError(status, response);
            response.finishResponse();
        } catch (IOException | IllegalStateException e) {
            LOG.debug("the problem for {} {} was not written: {}", status, uri, e.toString());
        }
    }
}
