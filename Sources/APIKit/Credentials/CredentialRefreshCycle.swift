/// Why a request in a credential refresh could not wait for another store's refresh: that
/// refresh waits, through others, for the one the request belongs to, so neither would end.
///
/// It reaches the caller as the ``CredentialRefreshFailed/underlyingError`` of a request that
/// had the other store's credential applied before that store's refresh came to wait for its
/// own, and was then rejected (``CredentialRefreshScope``): it fails instead of waiting.
struct CredentialRefreshCycle: Error, CustomStringConvertible {
    /// The type name of the authenticator whose refresh could not be waited for.
    let authenticator: String

    var description: String {
        "the refresh of \(authenticator)'s credential waits for the refresh this request belongs to"
    }
}
