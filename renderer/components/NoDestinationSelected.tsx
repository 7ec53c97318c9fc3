// The detail pane's place while no destination is selected: what to do to see one.

export function NoDestinationSelected() {
  return (
    <main className="detail">
      <div className="placeholder">
        <h2>No destination selected</h2>
        <p>
          Pick one in the list. Arrow keys move through it; <kbd>/</kbd> searches.
        </p>
      </div>
    </main>
  );
}
