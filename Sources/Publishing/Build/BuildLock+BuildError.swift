extension BuildLock {
    /// Runs `body` holding the lock of `outputDirectory`, as a build does: throws
    /// ``BuildError/locked(path:holder:)`` at once when another build holds it.
    static func withLock<T>(outputDirectory: String, _ body: (_ takenOverFrom: Holder?) throws(BuildError) -> T) throws(BuildError) -> T {
        try withLock(outputDirectory: outputDirectory, failure: BuildError.init(lock:), body)
    }
}

extension BuildError {
    /// Why a build could not take the output's lock.
    init(lock failure: BuildLock.Failure) {
        switch failure {
        case .held(let path, let holder): self = .locked(path: path, holder: holder)
        case .unusable(let error): self = .publish(error)
        }
    }
}
