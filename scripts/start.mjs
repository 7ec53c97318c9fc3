// `npm start`: until the desktop shell lands, says what works today.
console.log('Distributor Inspector: the desktop app arrives in a later step.');
console.log('Today: npx distributor-inspector inspect DEST [--json] and compare DEST SOURCE [--json].');
