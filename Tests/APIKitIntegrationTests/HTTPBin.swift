import APIKit
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The httpbin server the integration tests talk to.
///
/// `scripts/test.sh` starts httpbin on 127.0.0.1 and exports `APIKIT_HTTPBIN_URL`
/// and `APIKIT_REQUIRE_HTTPBIN=1`. Without the URL the suites are skipped, unless
/// the server is required, in which case `HTTPBinAvailabilityTests` fails.
enum HTTPBin {
    /// The raw value of `APIKIT_HTTPBIN_URL`, when set and not empty.
    static let configuredValue: String? = {
        guard let value = ProcessInfo.processInfo.environment["APIKIT_HTTPBIN_URL"], !value.isEmpty else {
            return nil
        }
        return value
    }()

    /// The server's URL, when `APIKIT_HTTPBIN_URL` holds a URL with a scheme and a host.
    static let url: URL? = configuredValue.flatMap { value in
        guard let url = URL(string: value), url.scheme != nil, url.host != nil else { return nil }
        return url
    }

    /// Whether `APIKIT_REQUIRE_HTTPBIN=1`: a missing server must fail the run, not skip it.
    static let isRequired = ProcessInfo.processInfo.environment["APIKIT_REQUIRE_HTTPBIN"] == "1"

    /// Why the suites are skipped.
    static let skipReason: Comment =
        "APIKIT_HTTPBIN_URL is not set: run `bash scripts/test.sh` to start httpbin and run the integration tests"

    /// The server's URL; a discard-port placeholder when the suites are disabled anyway.
    static var baseURL: URL {
        url ?? URL(string: "http://127.0.0.1:9")!
    }

    /// An ephemeral session shared by the tests (no cookies or cache leak between them).
    static let session = URLSession(configuration: .ephemeral)

    /// A URL on 127.0.0.1 where nothing listens, so connecting is refused.
    static func refusedURL() throws -> URL {
        let port = try #require(unusedLocalPort(), "could not find a free local port")
        return try #require(URL(string: "http://127.0.0.1:\(port)"))
    }

    /// A TCP port on 127.0.0.1 that was free a moment ago: the kernel picks it for a
    /// socket bound to port 0, and the socket is closed again without listening.
    static func unusedLocalPort() -> UInt16? {
        #if os(Linux)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return nil }
        defer { close(fd) }

        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(fd, socketAddress, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { return nil }

        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                getsockname(fd, socketAddress, &length)
            }
        }
        guard named == 0 else { return nil }
        let port = UInt16(bigEndian: address.sin_port)
        return port == 0 ? nil : port
    }
}

/// Always enabled, so that a run which requires httpbin cannot pass with every
/// integration test skipped.
@Suite("httpbin availability")
struct HTTPBinAvailabilityTests {
    @Test("APIKIT_HTTPBIN_URL is a usable URL when APIKIT_REQUIRE_HTTPBIN=1 (or whenever it is set)")
    func serverIsConfiguredWhenRequired() {
        if HTTPBin.isRequired {
            #expect(
                HTTPBin.url != nil,
                """
                APIKIT_REQUIRE_HTTPBIN=1 but APIKIT_HTTPBIN_URL is \(HTTPBin.configuredValue.map { "\"\($0)\", not a URL" } ?? "missing"): \
                the integration tests would be skipped; run `bash scripts/test.sh`, which starts httpbin
                """
            )
        }
        if HTTPBin.isRequired {
            #expect(
                FaultServer.url != nil,
                "APIKIT_REQUIRE_HTTPBIN=1 but APIKIT_FAULT_URL is missing: the fault tests would be skipped"
            )
            let realServers = [
                (S3Server.variable, S3Server.url != nil), (FastAPIServer.variable, FastAPIServer.url != nil),
                (LengthServer.variable, LengthServer.url != nil), (Presigner.variable, Presigner.command != nil),
            ]
            for (variable, isSet) in realServers {
                #expect(
                    isSet,
                    "APIKIT_REQUIRE_HTTPBIN=1 but \(variable) is missing or unusable: its tests would be skipped"
                )
            }
        }
        if let value = HTTPBin.configuredValue {
            #expect(HTTPBin.url != nil, "APIKIT_HTTPBIN_URL=\"\(value)\" is not a URL with a scheme and a host")
        }
    }
}
