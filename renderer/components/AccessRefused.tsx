// What a browser tab shows when the host refuses it (no token, or another run's token): why, and how to
// get the address with the token. Never shows or guesses a token; the host prints it, only there.

export function AccessRefused({ tokenGiven }: { tokenGiven: boolean }) {
  return (
    <main className="welcome">
      <div className="panel" role="alert" aria-labelledby="access-refused-title">
        <h1 id="access-refused-title">{tokenGiven ? 'This tab’s access token is not accepted' : 'This tab has no access token'}</h1>
        <p>
          {tokenGiven
            ? 'The token this tab carries belongs to another run of the host: each run of the host makes a new one, so it was probably restarted.'
            : 'The browser host answers only a tab opened with its token, so that other pages and other users of this machine cannot use it.'}
        </p>
        <p>
          Open the address that <code>distributor-inspector serve</code> printed when it started, the line{' '}
          <code>Open: http://127.0.0.1:PORT/#token=…</code> (with <code>npm start</code>, it is in that terminal). The token is the part
          after <code>#token=</code>; it never leaves this machine.
        </p>
        <p>Lost it? Stop the host (Ctrl-C) and start it again: it prints a new address.</p>
      </div>
    </main>
  );
}
