// The Mongo seed scenarios of the repository's examples/, run by mongosh unchanged (see MongoShellTest). The files' lines are
// passed in through the environment variables STUDENTS and INVOICES (JSON Lines, read with EJSON.parse).
const lines = text => text.split('\n').filter(l => l.trim().length > 0).map(l => EJSON.parse(l));
const r = {};

const school = db.getSiblingDB('school');
school.students_classes.drop();
r.studentsInserted = Object.keys(school.students_classes.insertMany(lines(process.env.STUDENTS)).insertedIds).length;
r.studentsIndex = school.students_classes.createIndex({'links.target': 1, 'links.doc_type': 1});
r.ofStudent = school.students_classes.find({'links.target': 'S12345'}).toArray().map(d => d._id).sort();
r.studentsOfClass = school.students_classes.find({doc_type: 'student', 'links.target': 'CS101-001'})
  .toArray().map(d => d._id).sort();
const plan = school.students_classes.find({'links.target': 'S12345'}).explain('executionStats');
r.studentsPlan = JSON.stringify(plan.queryPlanner.winningPlan);
r.byType = school.students_classes.aggregate([
  {$group: {_id: '$doc_type', n: {$sum: 1}}}, {$sort: {_id: 1}}]).toArray();

const shop = db.getSiblingDB('shop');
shop.orders.drop();
r.invoicesInserted = Object.keys(shop.orders.insertMany(lines(process.env.INVOICES)).insertedIds).length;
r.invoice = shop.orders.find({_id: /^C12345-I34562/}).toArray().map(d => d._id).sort();
const invoicePlan = shop.orders.find({_id: /^C12345-I34562/}).explain('executionStats');
r.invoicePlan = JSON.stringify(invoicePlan.queryPlanner.winningPlan);
r.invoiceDocsExamined = Number(invoicePlan.executionStats.totalDocsExamined);
const stats = shop.orders.stats();
r.stats = {ns: stats.ns, count: Number(stats.count)};

// the shell helpers print; their text is checked by the test
print('SHOW DBS');
db.getMongo().getDBs().databases.map(d => d.name).sort().forEach(n => print('db ' + n));
print('SHOW COLLECTIONS');
school.getCollectionNames().forEach(n => print('collection ' + n));
print(JSON.stringify(r));
