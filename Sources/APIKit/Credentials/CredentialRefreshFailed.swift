/// Thrown to every request that waited for a refresh that failed; reported as
/// ``RequestError/requestInterceptorFailed(_:context:)``.
///
/// ```swift
/// do {
///     _ = try await UserRequest(id: 1).response(using: api)
/// } catch .requestInterceptorFailed(let error as CredentialRefreshFailed, _) {
///     showLogin(reason: error.underlyingError)
/// }
/// ```
public struct CredentialRefreshFailed: Error, CustomStringConvertible {
    /// The error ``Authenticator/refresh()`` threw.
    public let underlyingError: any Error

    /// A sentence naming the refresh's error.
    public var description: String {
        "refreshing the credential failed: \(underlyingError)"
    }
}
